package io.eventtime.beam;

import java.io.Serializable;

/**
 * What this run carries on from the previous one: arrival positions go on after the carried
 * windows' (first and last are by arrival), and whether open windows are kept, not emitted.
 */
record Carry(long arrivalOffset, boolean holding) implements Serializable {
  /** The arrival of a row of this run, counted on from the runs before. */
  long arrival(ArrivedRow r) {
    return arrivalOffset + r.position;
  }
}
