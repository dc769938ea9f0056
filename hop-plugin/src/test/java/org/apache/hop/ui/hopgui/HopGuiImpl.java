package org.apache.hop.ui.hopgui;

/**
 * Test stand-in for the desktop class of hop-ui-rcp (not on the registry): HopGui loads
 * {@code <Class>Impl} for the desktop or the web at run time. One HopGui per JVM.
 */
public class HopGuiImpl implements ISingletonProvider {
  private static HopGui instance;

  @Override
  public synchronized Object getInstanceInternal() {
    if (instance == null) {
      instance = new HopGui();
    }
    return instance;
  }
}
