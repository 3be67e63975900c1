/**
 * The ledger timeline as an editor panel: at most one, revealed again when
 * asked twice, restored after a window reload by its serializer. The webview
 * is rebuilt when hidden (retainContextWhenHidden is off) and restores its
 * filters, selection and scroll position from its own saved state.
 */
import * as vscode from "vscode";
import type { TimelineController, TimelineIntent } from "./timelineController";
import { TimelineHost, hostTimeline } from "./timelineHost";
import { TIMELINE_VIEW_TYPE, timelineWebviewOptions } from "./timelineHtml";

/** Owns the timeline panel and its controller. */
export class TimelinePanel extends TimelineHost {
  private panel: vscode.WebviewPanel | null = null;
  private readonly changed = this.register(new vscode.EventEmitter<TimelineController | null>());
  /** Fires when the panel opens (with its controller) or closes (null). */
  readonly onDidChangeController = this.changed.event;

  /** Opens (or reveals) the panel and shows what `intent` asks for. */
  show(intent: TimelineIntent = {}): TimelineController {
    if (this.panel && this.ctrl) {
      this.panel.reveal(undefined, false);
      this.ctrl.reveal(intent);
      return this.ctrl;
    }
    const panel = vscode.window.createWebviewPanel(
      TIMELINE_VIEW_TYPE,
      vscode.l10n.t("AutoDev Timeline"),
      { viewColumn: vscode.ViewColumn.Active, preserveFocus: false },
      { ...timelineWebviewOptions(this.extensionUri), retainContextWhenHidden: false },
    );
    return this.adopt(panel, intent);
  }

  /** Takes over a panel VS Code restored after a reload. */
  restore(panel: vscode.WebviewPanel): TimelineController {
    panel.webview.options = timelineWebviewOptions(this.extensionUri);
    if (this.panel) this.panel.dispose();
    return this.adopt(panel, {});
  }

  private adopt(panel: vscode.WebviewPanel, intent: TimelineIntent): TimelineController {
    this.panel = panel;
    panel.iconPath = {
      light: vscode.Uri.joinPath(this.extensionUri, "media", "timeline-light.svg"),
      dark: vscode.Uri.joinPath(this.extensionUri, "media", "timeline-dark.svg"),
    };
    const ctrl = hostTimeline(panel, this.extensionUri, this.services, intent, () => {
      if (this.panel === panel) {
        this.panel = null;
        this.ctrl = null;
        this.changed.fire(null);
      }
    });
    this.ctrl = ctrl;
    this.changed.fire(ctrl);
    return ctrl;
  }

  /** Closes the panel (tests; window shutdown disposes it anyway). */
  close(): void {
    this.panel?.dispose();
  }

  override dispose(): void {
    this.panel?.dispose();
    super.dispose();
  }
}
