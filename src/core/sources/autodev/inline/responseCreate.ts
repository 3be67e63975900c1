/**
 * Creating the answer `autodev resume` reads, `.autodev/responses/{task}-{role}.json`
 * (the editor's "Create Response"), pre-filled from responseFile.ts. Made through the
 * checked `.autodev/` descriptor (autodevWriteDir.ts), so a `.autodev/` or `responses/`
 * swapped for a link to an outside folder cannot put the file there; created exclusively
 * and never through a link, so an existing answer is never overwritten.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { ConfinedWriteError } from "../../../fs/confinedDir";
import { CREATE_NEW_FLAGS, describeKind, errnoCode, NO_BLOCK } from "../../../fs/fileGuard";
import { isSafeSegment } from "../autodevPaths";
import { openAutodevForWrite } from "../autodevWriteDir";
import { RESPONSES_REL, responseRel } from "./inlinePaths";
import { responseTemplate } from "./responseFile";

/** What {@link createResponseFile} did: made the file, or found one (left as it was). */
export interface CreatedResponse {
  readonly kind: "created" | "exists";
  /** The file's path under the workspace (to open it in the editor). */
  readonly file: string;
}

const CREATE_FLAGS = CREATE_NEW_FLAGS | NO_BLOCK;

/**
 * Writes the pre-filled response for `taskId`/`role` unless one exists. Throws
 * `ConfinedWriteError` (a clear message, nothing written) for a task or role that
 * cannot name a file there, a `.autodev/` or `responses/` that is not a real
 * folder of the workspace (or is swapped while written in), and a response that
 * is a link, a FIFO or a folder.
 */
export async function createResponseFile(cwd: string, taskId: string, role: string): Promise<CreatedResponse> {
  const name = path.posix.basename(responseRel(taskId, role));
  const rel = `${RESPONSES_REL}/${name}`;
  if (!isSafeSegment(taskId) || !isSafeSegment(role) || !isSafeSegment(name)) {
    throw new ConfinedWriteError(
      `the waiting step's task ${JSON.stringify(taskId)} and role ${JSON.stringify(role)} do not name a file in ${RESPONSES_REL}/; nothing was written.`,
    );
  }
  const file = path.join(cwd, ...rel.split("/"));
  const autodev = await openAutodevForWrite(cwd);
  try {
    const responses = await autodev.sub(path.posix.basename(RESPONSES_REL), { create: true });
    try {
      let fh: fs.promises.FileHandle;
      try {
        fh = await fs.promises.open(responses.pathOf(name), CREATE_FLAGS, 0o666);
      } catch (e) {
        if (errnoCode(e) !== "EEXIST") {
          throw new ConfinedWriteError(`${rel} cannot be created (${errnoCode(e)}); nothing was written.`);
        }
        const st = await responses.lstat(name);
        if (st !== null && !st.isFile()) {
          throw new ConfinedWriteError(`${rel} is a ${describeKind(st)}, not a regular file; it was not opened.`);
        }
        return { kind: "exists", file };
      }
      try {
        await fh.writeFile(responseTemplate(taskId, role));
        await fh.sync();
      } finally {
        await fh.close();
      }
      responses.fsync();
      return { kind: "created", file };
    } finally {
      responses.close();
    }
  } finally {
    autodev.close();
  }
}
