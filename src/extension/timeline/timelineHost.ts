/**
 * What the timeline's editor panel and its sidebar view share: a webview with the timeline page
 * and one controller over the timeline services, disposed with the webview's owner.
 */
import type * as vscode from "vscode";
import { Disposable } from "../disposable";
import { TimelineController, TimelineIntent } from "./timelineController";
import type { TimelineServices } from "./timelineServices";
import { timelineHtml } from "./timelineHtml";

/** A panel or a view: what holds a timeline webview. */
interface WebviewOwner {
  readonly webview: vscode.Webview;
  readonly onDidDispose: vscode.Event<void>;
}

/**
 * A controller on `owner`'s webview showing what `intent` asks for, with the timeline page loaded.
 * When `owner` is disposed the controller is too, and `gone` is told.
 */
export function hostTimeline(
  owner: WebviewOwner,
  extensionUri: vscode.Uri,
  services: TimelineServices,
  intent: TimelineIntent,
  gone: (ctrl: TimelineController) => void,
): TimelineController {
  const ctrl = new TimelineController(owner.webview, services, intent);
  owner.webview.html = timelineHtml(owner.webview, extensionUri);
  const sub = owner.onDidDispose(() => {
    sub.dispose();
    ctrl.dispose();
    gone(ctrl);
  });
  return ctrl;
}

/** The timeline panel's and the sidebar view's common part: their services and live controller. */
export abstract class TimelineHost extends Disposable {
  protected ctrl: TimelineController | null = null;

  constructor(
    protected readonly extensionUri: vscode.Uri,
    protected readonly services: TimelineServices,
  ) {
    super();
  }

  /** The live controller, while its webview exists. */
  get controller(): TimelineController | null {
    return this.ctrl;
  }
}
