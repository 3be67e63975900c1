/**
 * The reviewed marks of every AutoDev folder, kept in the workspace state (`autodev.reviewMarks:
 * <folder uri>`) so they survive the window: per task and diff source, the sha256 of the diff the
 * person ticked (core/sources/autodev/evidence/reviewMarks.ts). What comes back from storage is
 * validated; a bad mark is dropped, never trusted. Fires when a folder's marks change.
 */
import * as vscode from "vscode";
import type { PatchSource } from "../../../../core/sources/autodev/evidence/evidenceNames";
import { isReviewed, parseFolderMarks, withMark } from "../../../../core/sources/autodev/evidence/reviewMarks";
import type { FolderReviewMarks } from "../../../../core/sources/reviewMarkSchema";
import { Disposable } from "../../../disposable";

/** A change of one mark. */
export interface ReviewMarkChange {
  readonly folderUri: string;
  readonly taskId: string;
  readonly source: PatchSource;
  readonly reviewed: boolean;
}

/** The workspace-state key of a folder's marks. */
function storageKey(folderUri: string): string {
  return `autodev.reviewMarks:${folderUri}`;
}

/** Reads and writes reviewed marks. */
export class ReviewMarkStore extends Disposable {
  private readonly cache = new Map<string, FolderReviewMarks>();
  private readonly changed = this.register(new vscode.EventEmitter<ReviewMarkChange>());
  /** Fires after a mark was set or cleared. */
  readonly onDidChange = this.changed.event;

  constructor(private readonly memento: vscode.Memento) {
    super();
  }

  /** The marks of one folder (by its URI string). */
  of(folderUri: string): FolderReviewMarks {
    let marks = this.cache.get(folderUri);
    if (!marks) {
      marks = parseFolderMarks(this.memento.get<unknown>(storageKey(folderUri))).marks;
      this.cache.set(folderUri, marks);
    }
    return marks;
  }

  /** True when the diff of `source` of `taskId` whose text hashes to `hash` is marked reviewed. */
  isReviewed(folderUri: string, taskId: string, source: PatchSource, hash: string): boolean {
    return isReviewed(this.of(folderUri), taskId, source, hash);
  }

  /** Marks the diff with content hash `hash` reviewed, or (`reviewed` false) clears its mark. */
  async set(folderUri: string, taskId: string, source: PatchSource, hash: string, reviewed: boolean): Promise<void> {
    const before = this.of(folderUri);
    if (isReviewed(before, taskId, source, hash) === reviewed) return;
    const next = withMark(before, taskId, source, reviewed ? hash : null, Date.now());
    this.cache.set(folderUri, next);
    await this.memento.update(storageKey(folderUri), next);
    this.changed.fire({ folderUri, taskId, source, reviewed });
  }

  /** Forgets what was read (the next read comes from the workspace state again). */
  reload(): void {
    this.cache.clear();
  }
}
