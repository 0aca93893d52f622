import { constants } from 'node:fs';
import { access, mkdir, stat } from 'node:fs/promises';
import path from 'node:path';

/**
 * A folder setting (DATA_DIR, AVATAR_DIR) names a place this process cannot make or write: said
 * in one line, naming the setting.
 */
export class UnusableFolderError extends Error {
  override readonly name = 'UnusableFolderError';
}

/**
 * Makes the folder that `setting` names (`dir`) if need be and checks that this process may write
 * there, at start: a place that cannot be used stops the program then, rather than the first
 * write to it.
 */
export async function usableFolder(setting: string, dir: string): Promise<void> {
  const root = path.resolve(dir);
  try {
    await makeFolders(root);
    await access(root, constants.W_OK);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new UnusableFolderError(
      `${setting} ${dir} cannot be used (${why}): set it to a folder this user may write.`,
    );
  }
}

/**
 * Makes `dir` and the folders above it that are missing, one level at a time from the nearest
 * folder that exists, so that a level that cannot be made fails with its own error. A recursive
 * mkdir never returns where a folder is refused with ENOENT although its parent exists (under
 * /proc): it makes the parent again and retries, forever.
 */
export async function makeFolders(dir: string): Promise<void> {
  const missing: string[] = [];
  for (let level = dir; !(await isFolder(level)); level = path.dirname(level)) {
    missing.unshift(level);
    if (path.dirname(level) === level) break;
  }
  for (const level of missing) {
    // Made meanwhile by another process (or request) on the same folder: as good as made here.
    await mkdir(level).catch(async (error: unknown) => {
      if (!(await isFolder(level))) throw error;
    });
  }
}

/** Whether `file` is a folder; false when there is nothing there, an error for what stops a look. */
async function isFolder(file: string): Promise<boolean> {
  try {
    return (await stat(file)).isDirectory();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}
