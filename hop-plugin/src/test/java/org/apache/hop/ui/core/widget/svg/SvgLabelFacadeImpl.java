package org.apache.hop.ui.core.widget.svg;

import org.eclipse.swt.widgets.Label;
import org.eclipse.swt.widgets.ToolItem;

/** Test stand-in for hop-ui-rcp's desktop class: on the desktop SVG labels are plain images. */
public class SvgLabelFacadeImpl extends SvgLabelFacade {
  @Override
  public void setDataInternal(String id, Label label, String imageFile, int size) {
    // the web client draws SVG in the browser; the desktop shows the image set on the label
  }

  @Override
  public void enableInternal(ToolItem toolItem, String id, Label label, boolean enable) {
    // see setDataInternal
  }

  @Override
  public void shadeSvgInternal(Label label, String id, boolean shaded) {
    // see setDataInternal
  }
}
