import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import type { CreateVersionRequest, UpdateVersionRequest } from './version-requests';
import { Version } from './version.entity';

export type VersionChanges = Omit<UpdateVersionRequest, 'id'>;

/** The versions table. A duplicate version number surfaces as the database's unique violation. */
@Injectable()
export class VersionsRepository {
  constructor(private readonly em: EntityManager) {}

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

  async create(request: CreateVersionRequest): Promise<Version> {
    const em = this.em.fork();
    const now = new Date();
    const version = em.create(Version, {
      version: request.version,
      title: request.title,
      content: request.content,
      releaseDate: request.release_date,
      createdAt: now,
      updatedAt: now,
    });
    await em.flush();
    return version;
  }

  async update(id: number, changes: VersionChanges): Promise<Version | null> {
    const em = this.em.fork();
    const version = await em.findOne(Version, { id });
    if (!version) return null;
    if (changes.version !== undefined) version.version = changes.version;
    if (changes.title !== undefined) version.title = changes.title;
    if (changes.content !== undefined) version.content = changes.content;
    if (changes.release_date !== undefined) version.releaseDate = changes.release_date;
    version.updatedAt = new Date();
    await em.flush();
    return version;
  }

  async delete(id: number): Promise<boolean> {
    return (await this.em.fork().nativeDelete(Version, { id })) > 0;
  }
}
