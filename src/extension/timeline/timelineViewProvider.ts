/**
 * The ledger timeline as a view in the AutoDev sidebar container, beside the
 * Plan tree. Same webview and controller as the panel; VS Code disposes the
 * webview while the view is hidden and the page restores its state.
 */
import * as vscode from "vscode";
import { TimelineHost, hostTimeline } from "./timelineHost";
import { timelineWebviewOptions } from "./timelineHtml";

/** The contributed id of the timeline view. */
export const TIMELINE_VIEW_ID = "autodev.timelineView";

/** Resolves the sidebar timeline view. */
export class TimelineViewProvider extends TimelineHost implements vscode.WebviewViewProvider {
  resolveWebviewView(view: vscode.WebviewView): void {
    view.webview.options = timelineWebviewOptions(this.extensionUri);
    const old = this.ctrl;
    const ctrl = hostTimeline(view, this.extensionUri, this.services, {}, (gone) => {
      if (this.ctrl === gone) this.ctrl = null;
    });
    old?.dispose();
    this.ctrl = ctrl;
  }

  override dispose(): void {
    this.ctrl?.dispose();
    this.ctrl = null;
    super.dispose();
  }
}
