import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

/**
 * The folders' import rules (docs/relay.md, "Where things are"): a client's call crosses its dialect,
 * the canonical shapes and one provider, and never another dialect's folder.
 */

const SRC = __dirname;

interface Import {
  file: string;
  target: string;
  typeOnly: boolean;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** The relative imports of every file under `folder`, each as paths from src (`dialects/gemini/request`). */
function importsUnder(folder: string, options: { specs: boolean }): Import[] {
  return sourceFiles(join(SRC, folder))
    .filter((path) => options.specs || !path.endsWith('.spec.ts'))
    .flatMap((path) => {
      const source = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest);
      return source.statements.flatMap((statement) => {
        const isImport = ts.isImportDeclaration(statement);
        if (!isImport && !ts.isExportDeclaration(statement)) return [];
        const specifier = statement.moduleSpecifier;
        if (specifier === undefined || !ts.isStringLiteral(specifier) || !specifier.text.startsWith('.'))
          return [];
        const typeOnly = isImport ? (statement.importClause?.isTypeOnly ?? false) : statement.isTypeOnly;
        const target = relative(SRC, resolve(dirname(path), specifier.text))
          .split(sep)
          .join('/');
        return [{ file: relative(SRC, path).split(sep).join('/'), target, typeOnly }];
      });
    });
}

const dialectOf = (path: string): string | undefined => /^dialects\/([^/]+)\//.exec(path)?.[1];
const show = (imports: Import[]) => imports.map(({ file, target }) => `${file} -> ${target}`);

describe('relay folders', () => {
  it("no dialect imports another dialect's files", () => {
    const crossing = importsUnder('dialects', { specs: true }).filter(({ file, target }) => {
      const from = dialectOf(file);
      const to = dialectOf(target);
      return from !== undefined && to !== undefined && from !== to;
    });
    expect(show(crossing)).toEqual([]);
  });

  it('no provider imports a dialect', () => {
    const crossing = importsUnder('providers', { specs: true }).filter(({ target }) =>
      target.startsWith('dialects/'),
    );
    expect(show(crossing)).toEqual([]);
  });

  it('the canonical shapes import nothing else of relay', () => {
    const outside = importsUnder('canonical', { specs: true }).filter(
      ({ target }) => !target.startsWith('canonical'),
    );
    expect(show(outside)).toEqual([]);
  });

  it("a dialect takes from providers only its own family's wire types, as types", () => {
    const taken = importsUnder('dialects', { specs: false }).filter(({ target }) =>
      target.startsWith('providers/'),
    );
    const allowed = ({ file, target, typeOnly }: Import) =>
      typeOnly && target === `providers/${dialectOf(file)}/types`;
    expect(show(taken.filter((one) => !allowed(one)))).toEqual([]);
  });
});
