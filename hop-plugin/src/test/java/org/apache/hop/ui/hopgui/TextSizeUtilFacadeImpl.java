package org.apache.hop.ui.hopgui;

import org.eclipse.swt.SWT;
import org.eclipse.swt.graphics.GC;
import org.eclipse.swt.graphics.Image;
import org.eclipse.swt.graphics.Point;
import org.eclipse.swt.widgets.Display;

/** Test stand-in for hop-ui-rcp's desktop class: measures text with a graphics context. */
public class TextSizeUtilFacadeImpl extends TextSizeUtilFacade {
  @Override
  Point textExtentInternal(String text) {
    Image image = new Image(Display.getCurrent(), 1, 1);
    GC gc = new GC(image);
    try {
      return gc.textExtent(text, SWT.DRAW_TAB | SWT.DRAW_DELIMITER);
    } finally {
      gc.dispose();
      image.dispose();
    }
  }
}
