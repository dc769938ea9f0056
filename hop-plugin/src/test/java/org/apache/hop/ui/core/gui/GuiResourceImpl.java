package org.apache.hop.ui.core.gui;

import org.apache.hop.ui.hopgui.ISingletonProvider;

/** Test stand-in for hop-ui-rcp's desktop class: one GuiResource per JVM. */
public class GuiResourceImpl implements ISingletonProvider {
  private static GuiResource instance;

  @Override
  public synchronized Object getInstanceInternal() {
    if (instance == null) {
      instance = new GuiResource();
    }
    return instance;
  }
}
