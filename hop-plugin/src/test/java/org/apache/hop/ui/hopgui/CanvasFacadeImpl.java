package org.apache.hop.ui.hopgui;

import org.apache.hop.core.gui.DPoint;
import org.eclipse.swt.widgets.Canvas;

/** Test stand-in for hop-ui-rcp's desktop class: on the desktop a canvas needs no extra data. */
public class CanvasFacadeImpl extends CanvasFacade {
  @Override
  void setDataInternal(Canvas canvas, float magnification, DPoint offset, Object meta) {
    // the web client needs it, the desktop does not
  }
}
