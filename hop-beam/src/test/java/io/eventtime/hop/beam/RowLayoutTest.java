package io.eventtime.hop.beam;

import static org.assertj.core.api.Assertions.assertThat;

import io.eventtime.beam.BeamValues;
import io.eventtime.hop.HopValues;
import java.util.ArrayList;
import java.util.List;
import org.apache.hop.core.row.IRowMeta;
import org.apache.hop.core.row.IValueMeta;
import org.apache.hop.core.row.RowMeta;
import org.apache.hop.core.row.value.ValueMetaBigNumber;
import org.apache.hop.core.row.value.ValueMetaBinary;
import org.apache.hop.core.row.value.ValueMetaBoolean;
import org.apache.hop.core.row.value.ValueMetaDate;
import org.apache.hop.core.row.value.ValueMetaInteger;
import org.apache.hop.core.row.value.ValueMetaInternetAddress;
import org.apache.hop.core.row.value.ValueMetaNumber;
import org.apache.hop.core.row.value.ValueMetaString;
import org.apache.hop.core.row.value.ValueMetaTimestamp;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Hop fields carried between Beam steps keep the core type Hop's own map gives them. */
class RowLayoutTest {
  private static final List<IValueMeta> FIELDS = List.of(new ValueMetaString("s"), new ValueMetaInteger("i"),
      new ValueMetaNumber("n"), new ValueMetaBigNumber("b"), new ValueMetaBoolean("ok"), new ValueMetaDate("d"),
      new ValueMetaTimestamp("ts"), new ValueMetaBinary("bytes"));

  @BeforeAll
  static void hop() {
    HopBeamTesting.initHop();
  }

  @Test
  void eachHopTypeTravelsAsABeamTypeOfTheSameCoreTypeABigNumberAsADecimalThatIsADouble() {
    IRowMeta meta = new RowMeta();
    FIELDS.forEach(meta::addValueMeta);
    List<String> problems = new ArrayList<>();
    RowLayout layout = RowLayout.of(meta, "Transform 't'", problems);
    assertThat(problems).isEmpty();
    assertThat(layout.schema().getFields().stream().map(f -> f.getType().getTypeName().name()).toList())
        .containsExactly("STRING", "INT64", "DOUBLE", "DECIMAL", "BOOLEAN", "DATETIME", "DATETIME", "BYTES", "INT64");
    for (IValueMeta v : FIELDS) {
      assertThat(BeamValues.coreType(RowLayout.beamType(v))).as(v.getTypeDesc()).isEqualTo(HopValues.valueType(v));
    }
    assertThat(BeamValues.coreType(RowLayout.beamType(new ValueMetaBigNumber("b"))))
        .isEqualTo(io.eventtime.core.ValueType.DOUBLE);
  }

  @Test
  void aTypeThatCannotTravelIsAProblemNamingTheField() {
    IRowMeta meta = new RowMeta();
    meta.addValueMeta(new ValueMetaInternetAddress("ip"));
    List<String> problems = new ArrayList<>();
    RowLayout.of(meta, "Transform 't'", problems);
    assertThat(RowLayout.beamType(new ValueMetaInternetAddress("ip"))).isNull();
    assertThat(problems).containsExactly("Transform 't': the field 'ip' is of type Internet Address, which cannot be"
        + " carried between Beam steps: convert it to a String, Integer, Number, BigNumber, Boolean, Date, Timestamp"
        + " or Binary field first (e.g. with Select values)");
  }
}
