package io.eventtime.beam;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.AbstractList;
import java.util.ArrayList;
import java.util.List;
import org.apache.commons.io.input.UnsynchronizedByteArrayInputStream;
import org.apache.commons.io.output.UnsynchronizedByteArrayOutputStream;
import org.apache.beam.sdk.coders.CoderException;
import org.apache.beam.sdk.util.VarInt;

/**
 * A batch of rows as it comes out of its coder: the rows stay encoded until one is read. Beam's
 * Spark runner keeps all outputs of a step with several together and decodes every element of
 * them for each step that reads any one output; {@link ReadEventTimes}' batches then cost their
 * decoding once, in the step that reads the rows, not again for the readers of the arrival times
 * and the rejected rows. Unmodifiable, as an element must be.
 */
final class ArrivedRowBatch extends AbstractList<ArrivedRow> {
  private final byte[] encoded;
  private final int size;
  private final ArrivedRow.ArrivedRowCoder rowCoder;
  /** The rows once decoded; two threads reading at once may both decode, to equal lists. */
  private volatile List<ArrivedRow> rows;

  private ArrivedRowBatch(byte[] encoded, int size, ArrivedRow.ArrivedRowCoder rowCoder) {
    this.encoded = encoded;
    this.size = size;
    this.rowCoder = rowCoder;
  }

  @Override
  public ArrivedRow get(int index) {
    return rows().get(index);
  }

  @Override
  public int size() {
    return size;
  }

  private List<ArrivedRow> rows() {
    List<ArrivedRow> decoded = rows;
    if (decoded == null) {
      decoded = decode();
      rows = decoded;
    }
    return decoded;
  }

  private List<ArrivedRow> decode() {
    List<ArrivedRow> decoded = new ArrayList<>(size);
    try {
      InputStream in = UnsynchronizedByteArrayInputStream.builder().setByteArray(encoded).get();
      for (int i = 0; i < size; i++) {
        decoded.add(rowCoder.decode(in));
      }
      if (in.available() > 0) {
        throw new CoderException(in.available() + " bytes were left after the batch's " + size + " rows");
      }
    } catch (IOException e) {
      throw new UncheckedIOException("a batch of " + size + " rows could not be decoded", e);
    }
    return decoded;
  }

  /**
   * The number of rows, then the rows' bytes with their length: a batch decoded from it and not
   * read since goes out again as the same bytes, without being decoded. The rows go into their
   * block and out of it through commons-io's array streams without locks: a row's coder writes
   * and reads a byte at a time, and {@code java.io}'s array streams lock for every call.
   */
  static final class BatchCoder extends WrappingCoder<List<ArrivedRow>, ArrivedRow.ArrivedRowCoder> {
    BatchCoder(ArrivedRow.ArrivedRowCoder rowCoder) {
      super(rowCoder);
    }

    @Override
    public void encode(List<ArrivedRow> batch, OutputStream out) throws IOException {
      VarInt.encode(batch.size(), out);
      if (batch instanceof ArrivedRowBatch b && b.rowCoder.equals(inner)) {
        VarInt.encode(b.encoded.length, out);
        out.write(b.encoded);
        return;
      }
      UnsynchronizedByteArrayOutputStream rows = UnsynchronizedByteArrayOutputStream.builder().get();
      for (ArrivedRow r : batch) {
        inner.encode(r, rows);
      }
      VarInt.encode(rows.size(), out);
      rows.writeTo(out);
    }

    @Override
    public List<ArrivedRow> decode(InputStream in) throws IOException {
      int size = VarInt.decodeInt(in);
      int length = VarInt.decodeInt(in);
      if (size < 0 || length < 0) {
        throw new CoderException("a batch of " + size + " rows in " + length + " bytes cannot be read");
      }
      byte[] bytes = in.readNBytes(length);
      if (bytes.length != length) {
        throw new CoderException("a batch of " + size + " rows ended after " + bytes.length + " of its " + length
            + " bytes");
      }
      return new ArrivedRowBatch(bytes, size, inner);
    }
  }
}
