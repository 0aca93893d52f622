import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/** The workspaces' own package.json files and what their sources import, read from disk. */
const root = fileURLToPath(new URL('../..', import.meta.url));
const rootManifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  workspaces: string[];
};

interface Workspace {
  folder: string;
  name: string;
  runtime: Set<string>;
  declared: Set<string>;
  imports: Map<string, string[]>;
}

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.(ts|tsx)$/.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name))
    .filter((file) => !file.includes('node_modules'));
}

const importPattern = /(?:from\s+|import\(\s*)'(@wagers\/[\w-]+)/g;

function readWorkspace(folder: string): Workspace {
  const manifest = JSON.parse(readFileSync(join(root, folder, 'package.json'), 'utf8')) as {
    name: string;
    dependencies?: Record<string, string>;
    devDependencies?: Record<string, string>;
  };
  const runtime = new Set(Object.keys(manifest.dependencies ?? {}));
  const declared = new Set([...runtime, ...Object.keys(manifest.devDependencies ?? {})]);
  const imports = new Map<string, string[]>();
  for (const file of sourceFiles(join(root, folder, 'src'))) {
    for (const match of readFileSync(file, 'utf8').matchAll(importPattern)) {
      const target = match[1]!;
      if (target === manifest.name) continue;
      imports.set(target, [...(imports.get(target) ?? []), file.slice(root.length)]);
    }
  }
  return { folder, name: manifest.name, runtime, declared, imports };
}

const workspaces = rootManifest.workspaces.map(readWorkspace);

describe('workspaces', () => {
  it.each(workspaces.map((w) => [w.folder, w] as const))(
    '%s declares every workspace it imports in its package.json',
    (_folder, workspace) => {
      const undeclared = [...workspace.imports.entries()]
        .filter(([target]) => !workspace.declared.has(target))
        .map(([target, files]) => `${target} (imported by ${files.join(', ')})`);
      expect(undeclared).toEqual([]);
    },
  );

  it('depend on each other without a cycle, test dependencies included', () => {
    const byName = new Map(workspaces.map((w) => [w.name, w]));
    const state = new Map<string, 'visiting' | 'done'>();
    const cycles: string[] = [];
    const visit = (name: string, path: string[]) => {
      if (state.get(name) === 'done') return;
      if (state.get(name) === 'visiting') {
        cycles.push([...path.slice(path.indexOf(name)), name].join(' -> '));
        return;
      }
      state.set(name, 'visiting');
      for (const next of byName.get(name)?.declared ?? []) {
        if (byName.has(next)) visit(next, [...path, name]);
      }
      state.set(name, 'done');
    };
    for (const workspace of workspaces) visit(workspace.name, []);
    expect(cycles).toEqual([]);
  });
});
