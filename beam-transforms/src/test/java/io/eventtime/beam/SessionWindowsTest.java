package io.eventtime.beam;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.Row;
import org.junit.jupiter.api.Test;

class SessionWindowsTest {
  private static final Schema SCHEMA = Schema.builder().addStringField("k").build();

  @Test
  void aBatchGoesOnSplitByGroupOfBlocksWithEachGroupsRowsInTheirOrder() {
    // blocks of 2^2 positions, groups of 2^6 blocks: positions 0..255 are group 0, 256..511 group 1
    ArrivedRow a = row(255);
    ArrivedRow b = row(256);
    ArrivedRow c = row(3);
    ArrivedRow d = row(600);
    ArrivedRow e = row(300);

    assertThat(SessionWindows.byGroup(List.of(a, b, c, d, e), 2))
        .containsExactly(KV.of(0L, List.of(a, c)), KV.of(1L, List.of(b, e)), KV.of(2L, List.of(d)));
    assertThat(SessionWindows.byGroup(List.of(), 2)).isEmpty();
  }

  private static ArrivedRow row(long position) {
    return new ArrivedRow(position, 0, ArrivedRow.NO_WATERMARK, Row.withSchema(SCHEMA).addValue("k" + position).build());
  }
}
