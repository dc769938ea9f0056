package org.apache.hop.ui.hopgui.context;

import org.apache.hop.ui.hopgui.ISingletonProvider;

/** Test stand-in for hop-ui-rcp's desktop class: one GuiContextUtil per JVM. */
public class GuiContextUtilImpl implements ISingletonProvider {
  private static GuiContextUtil instance;

  @Override
  public synchronized Object getInstanceInternal() {
    if (instance == null) {
      instance = new GuiContextUtil();
    }
    return instance;
  }
}
