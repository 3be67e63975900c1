/**
 * The ledger timeline as a view in the AutoDev sidebar container, beside the
 * Plan tree. Same webview and controller as the panel; VS Code disposes the
 * webview while the view is hidden and the page restores its state.
 */
import * as vscode from "vscode";
import { Disposable } from "../disposable";
import { TimelineController } from "./timelineController";
import type { TimelineServices } from "./timelineServices";
import { timelineHtml, timelineWebviewOptions } from "./timelineHtml";

/** The contributed id of the timeline view. */
export const TIMELINE_VIEW_ID = "autodev.timelineView";

/** Resolves the sidebar timeline view. */
export class TimelineViewProvider extends Disposable implements vscode.WebviewViewProvider {
  private ctrl: TimelineController | null = null;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly services: TimelineServices,
  ) {
    super();
  }

  /** The controller of the view while its webview exists. */
  get controller(): TimelineController | null {
    return this.ctrl;
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    view.webview.options = timelineWebviewOptions(this.extensionUri);
    const ctrl = new TimelineController(view.webview, this.services, {});
    this.ctrl?.dispose();
    this.ctrl = ctrl;
    view.webview.html = timelineHtml(view.webview, this.extensionUri);
    const sub = view.onDidDispose(() => {
      sub.dispose();
      ctrl.dispose();
      if (this.ctrl === ctrl) this.ctrl = null;
    });
  }

  override dispose(): void {
    this.ctrl?.dispose();
    this.ctrl = null;
    super.dispose();
  }
}
