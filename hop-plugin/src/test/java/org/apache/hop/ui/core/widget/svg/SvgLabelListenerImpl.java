package org.apache.hop.ui.core.widget.svg;

import org.apache.hop.ui.hopgui.ISingletonProvider;
import org.eclipse.swt.widgets.Event;
import org.eclipse.swt.widgets.Listener;

/** Test stand-in for hop-ui-rcp's desktop class: SVG labels need no listener on the desktop. */
public class SvgLabelListenerImpl implements ISingletonProvider, Listener {
  @Override
  public Object getInstanceInternal() {
    return this;
  }

  @Override
  public void handleEvent(Event event) {
    // the web client needs it, the desktop does not
  }
}
