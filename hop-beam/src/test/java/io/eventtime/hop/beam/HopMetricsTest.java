package io.eventtime.hop.beam;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Locale;
import org.junit.jupiter.api.Test;

class HopMetricsTest {
  /**
   * The workers name the counters and the client reads them back by name: in Turkish, "input" in
   * upper case is "İNPUT", so a name that followed the JVM's locale would be lost between a worker
   * and a client whose locales differ.
   */
  @Test
  void countersAreNamedAlikeWhateverTheLocale() {
    Locale before = Locale.getDefault();
    try {
      Locale.setDefault(Locale.forLanguageTag("tr-TR"));
      assertThat(HopMetrics.Kind.INPUT.namespace()).endsWith(".input");
      assertThat(HopMetrics.Kind.WRITTEN.namespace()).endsWith(".written");
      for (HopMetrics.Kind kind : HopMetrics.Kind.values()) {
        assertThat(HopMetrics.kindOf(kind.namespace())).isEqualTo(kind);
        // as a worker in another locale names it
        assertThat(HopMetrics.kindOf(HopMetrics.NAMESPACE_PREFIX + kind.name().toLowerCase(Locale.ENGLISH))).isEqualTo(kind);
      }
      assertThat(HopMetrics.kindOf("someone.else")).isNull();
    } finally {
      Locale.setDefault(before);
    }
  }
}
