package org.apache.hop.ui.hopgui;

/** Test stand-in for hop-ui-rcp's desktop class: server push is a web client matter. */
public class ServerPushSessionFacadeImpl extends ServerPushSessionFacade {
  @Override
  void startInternal() {
    // nothing to push on the desktop
  }

  @Override
  void stopInternal() {
    // nothing to push on the desktop
  }
}
