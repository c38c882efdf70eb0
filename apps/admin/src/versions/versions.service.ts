import { Injectable } from '@nestjs/common';
import { ErrorCode, type Page } from '@tollgate/contracts';
import { isUniqueViolation, type AuditActor } from '@tollgate/persistence';
import type { Locale } from '@tollgate/platform';
import { localizedException } from '../i18n/messages';
import type { CreateVersionRequest, UpdateVersionRequest, VersionView } from '@tollgate/contracts';
import type { Version } from './version.entity';
import { VersionsRepository } from './versions.repository';

const seconds = (d: Date) => Math.floor(d.getTime() / 1000);

const view = (version: Version): VersionView => ({
  id: version.id,
  version: version.version,
  title: version.title,
  content: version.content,
  release_date: version.releaseDate,
  created_time: seconds(version.createdAt),
  updated_time: seconds(version.updatedAt),
});

const notFound = (locale: Locale) => localizedException(ErrorCode.NotFound, 'version_not_found', locale);

/** A duplicate version number is the caller's mistake (409), not a server error. */
const duplicateAsConflict =
  (locale: Locale) =>
  (error: unknown): never => {
    if (isUniqueViolation(error)) throw localizedException(ErrorCode.Conflict, 'version_exists', locale);
    throw error;
  };

/** The changelog: read by everyone, written by administrators. */
@Injectable()
export class VersionsService {
  constructor(private readonly versions: VersionsRepository) {}

  async list(page: number, pageSize: number): Promise<Page<VersionView>> {
    const found = await this.versions.page(page, pageSize);
    return { page, page_size: pageSize, total: found.total, items: found.items.map(view) };
  }

  async create(actor: AuditActor, request: CreateVersionRequest, locale: Locale): Promise<VersionView> {
    return view(await this.versions.create(request, actor).catch(duplicateAsConflict(locale)));
  }

  async update(actor: AuditActor, request: UpdateVersionRequest, locale: Locale): Promise<VersionView> {
    const { id, ...changes } = request;
    const version = await this.versions.update(id, changes, actor).catch(duplicateAsConflict(locale));
    if (!version) throw notFound(locale);
    return view(version);
  }

  async delete(actor: AuditActor, id: number, locale: Locale): Promise<void> {
    if (!(await this.versions.delete(id, actor))) throw notFound(locale);
  }
}
