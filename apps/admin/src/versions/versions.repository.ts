import { LockMode } from '@mikro-orm/core';
import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { auditRecorder, OutboxRelay, type AuditActor } from '@tollgate/persistence';
import type { CreateVersionRequest, UpdateVersionRequest } from '@tollgate/contracts';
import { Version } from './version.entity';

const auditVersion = auditRecorder('admin', 'version');

export type VersionChanges = Omit<UpdateVersionRequest, 'id'>;

/** The versions table. A duplicate version number surfaces as the database's unique violation. */
@Injectable()
export class VersionsRepository {
  constructor(
    private readonly em: EntityManager,
    private readonly outbox: OutboxRelay,
  ) {}

  async page(page: number, pageSize: number): Promise<{ items: Version[]; total: number }> {
    const [items, total] = await this.em
      .fork()
      .findAndCount(
        Version,
        {},
        { orderBy: { releaseDate: 'desc', id: 'desc' }, limit: pageSize, offset: (page - 1) * pageSize },
      );
    return { items, total };
  }

  async create(request: CreateVersionRequest, actor: AuditActor): Promise<Version> {
    const version = await this.em.fork().transactional(async (tx) => {
      const now = new Date();
      const created = tx.create(Version, {
        version: request.version,
        title: request.title,
        content: request.content,
        releaseDate: request.release_date,
        createdAt: now,
        updatedAt: now,
      });
      await tx.flush();
      await auditVersion(tx, actor, 'version.create', created.id, null, versionAuditSnapshot(created));
      return created;
    });
    this.outbox.nudge();
    return version;
  }

  async update(id: number, changes: VersionChanges, actor: AuditActor): Promise<Version | null> {
    const version = await this.em.fork().transactional(async (tx) => {
      const found = await tx.findOne(Version, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!found) return null;
      const before = versionAuditSnapshot(found);
      if (changes.version !== undefined) found.version = changes.version;
      if (changes.title !== undefined) found.title = changes.title;
      if (changes.content !== undefined) found.content = changes.content;
      if (changes.release_date !== undefined) found.releaseDate = changes.release_date;
      found.updatedAt = new Date();
      await tx.flush();
      await auditVersion(tx, actor, 'version.update', id, before, versionAuditSnapshot(found));
      return found;
    });
    if (version) this.outbox.nudge();
    return version;
  }

  async delete(id: number, actor: AuditActor): Promise<boolean> {
    const deleted = await this.em.fork().transactional(async (tx) => {
      const found = await tx.findOne(Version, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!found) return false;
      const before = versionAuditSnapshot(found);
      await tx.nativeDelete(Version, { id });
      await auditVersion(tx, actor, 'version.delete', id, before, null);
      return true;
    });
    if (deleted) this.outbox.nudge();
    return deleted;
  }
}

function versionAuditSnapshot(version: Version): Record<string, unknown> {
  return {
    version: version.version,
    title: version.title,
    content: version.content,
    release_date: version.releaseDate,
  };
}
