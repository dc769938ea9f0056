package org.apache.hop.ui.hopgui;

import org.eclipse.swt.widgets.Event;
import org.eclipse.swt.widgets.Listener;

/** Test stand-in for hop-ui-rcp's desktop class: the desktop canvas needs no extra listener. */
public class CanvasListenerImpl implements ISingletonProvider, Listener {
  @Override
  public Object getInstanceInternal() {
    return this;
  }

  @Override
  public void handleEvent(Event event) {
    // the web client needs it, the desktop does not
  }
}
