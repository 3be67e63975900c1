import type * as vscode from "vscode";

/** A memento that keeps nothing between tests (a first session: nothing remembered). */
export function freshMemento(): vscode.Memento {
  const m = new Map<string, unknown>();
  return {
    keys: () => [...m.keys()],
    get: <T>(k: string, d?: T) => (m.has(k) ? (m.get(k) as T) : d),
    update: async (k: string, v: unknown) => void (v === undefined ? m.delete(k) : m.set(k, v)),
  } as vscode.Memento;
}
