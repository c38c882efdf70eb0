import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..', '..', '..');

/** Every workspace of the root package.json (`apps/*`, `libs/*`, `tools/*`) as `folder/name`. */
function workspaces(): string[] {
  const { workspaces: globs } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    workspaces: string[];
  };
  return globs.flatMap((glob) => {
    const folder = glob.replace(/\/\*$/, '');
    return readdirSync(join(ROOT, folder), { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && existsSync(join(ROOT, folder, entry.name, 'package.json')))
      .map((entry) => `${folder}/${entry.name}`);
  });
}

describe('Dockerfile', () => {
  it("copies every workspace's package.json before npm ci, so each one is linked in the image", () => {
    const dockerfile = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');
    const beforeInstall = dockerfile.slice(0, dockerfile.indexOf('RUN npm ci'));
    const missing = workspaces().filter(
      (workspace) => !beforeInstall.includes(`COPY ${workspace}/package.json ${workspace}/`),
    );
    expect(missing).toEqual([]);
  });
});
