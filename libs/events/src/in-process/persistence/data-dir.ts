import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, truncateSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { EventBusLogger } from '../../shared/logger';
import type { LogRecord } from '../log-record';
import { AppendFile } from './append-file';
import { writeFileAtomic, writeFileAtomicSync } from './atomic-file';
import { DataDirLock } from './data-dir-lock';
import { parseJsonLines } from './json-lines';
import {
  decodeOffsetLine,
  decodeRecordLine,
  encodeOffsetLine,
  encodeRecordLine,
  type OffsetEntry,
} from './record-lines';

export interface TopicMeta {
  compacted: boolean;
  partitions: number;
}

export interface StoredTopic extends TopicMeta {
  name: string;
  /** Records per partition, torn tails already cut off. */
  records: LogRecord[][];
}

/** Where one partition's records live: appended as they come, rewritten when compacted. */
export interface PartitionStorage {
  append(records: LogRecord[]): Promise<void>;
  rewrite(records: readonly LogRecord[]): Promise<void>;
  rewriteSync(records: readonly LogRecord[]): void;
}

export interface OffsetsStorage {
  append(entries: OffsetEntry[]): Promise<void>;
  rewrite(entries: OffsetEntry[]): Promise<void>;
}

/**
 * Layout: `offsets.jsonl` (committed offsets, last line per group/topic/partition
 * wins), and `topics/<topic>/topic.json` plus `topics/<topic>/<partition>.jsonl`.
 * Appends are not fsynced: they survive a process crash, which is what the embedded mode
 * needs; rewrites are atomic and fsynced.
 */
export class DataDir {
  private readonly lock: DataDirLock;
  private readonly topicsDir: string;
  private readonly offsetsPath: string;
  private readonly files = new Set<AppendFile>();

  constructor(
    readonly path: string,
    private readonly logger: EventBusLogger,
  ) {
    mkdirSync(path, { recursive: true });
    this.lock = DataDirLock.acquire(path);
    this.topicsDir = join(path, 'topics');
    this.offsetsPath = join(path, 'offsets.jsonl');
    mkdirSync(this.topicsDir, { recursive: true });
  }

  loadTopics(): StoredTopic[] {
    const topics: StoredTopic[] = [];
    for (const name of readdirSync(this.topicsDir)) {
      const metaPath = join(this.topicsDir, name, 'topic.json');
      // A folder without topic.json is a topic whose creation was interrupted.
      if (!existsSync(metaPath)) continue;
      const meta = decodeTopicMeta(JSON.parse(readFileSync(metaPath, 'utf8')), metaPath);
      const records = Array.from({ length: meta.partitions }, (_, partition) =>
        this.loadJsonLines(this.partitionPath(name, partition), decodeRecordLine),
      );
      topics.push({ name, ...meta, records });
    }
    return topics;
  }

  /** Latest committed offset per group/topic/partition; the file is rewritten to just those. */
  loadOffsets(): OffsetEntry[] {
    const latest = new Map<string, OffsetEntry>();
    for (const entry of this.loadJsonLines(this.offsetsPath, decodeOffsetLine)) {
      latest.set(JSON.stringify([entry.groupId, entry.topic, entry.partition]), entry);
    }
    const entries = [...latest.values()];
    writeFileAtomicSync(this.offsetsPath, entries.map(encodeOffsetLine).join(''));
    return entries;
  }

  async createTopic(name: string, meta: TopicMeta): Promise<void> {
    await mkdir(join(this.topicsDir, name), { recursive: true });
    await writeFileAtomic(join(this.topicsDir, name, 'topic.json'), `${JSON.stringify(meta)}\n`);
  }

  partitionStorage(topic: string, partition: number): PartitionStorage {
    const path = this.partitionPath(topic, partition);
    const file = this.appendFile(path);
    const content = (records: readonly LogRecord[]) => records.map(encodeRecordLine).join('');
    return {
      append: (records) => file.append(content(records)),
      rewrite: async (records) => {
        await writeFileAtomic(path, content(records));
        file.reopen();
      },
      rewriteSync: (records) => {
        writeFileAtomicSync(path, content(records));
        file.reopen();
      },
    };
  }

  offsetsStorage(): OffsetsStorage {
    const path = this.offsetsPath;
    const file = this.appendFile(path);
    const content = (entries: OffsetEntry[]) => entries.map(encodeOffsetLine).join('');
    return {
      append: (entries) => file.append(content(entries)),
      rewrite: async (entries) => {
        await writeFileAtomic(path, content(entries));
        file.reopen();
      },
    };
  }

  /** Once nothing is being written any more (the bus drained its queues). */
  close(): void {
    for (const file of this.files) file.close();
    this.lock.release();
  }

  /** Appends keep one descriptor open per file; a rewrite, which replaces the file, reopens it. */
  private appendFile(path: string): AppendFile {
    const file = new AppendFile(path);
    this.files.add(file);
    return file;
  }

  private partitionPath(topic: string, partition: number): string {
    return join(this.topicsDir, topic, `${partition}.jsonl`);
  }

  private loadJsonLines<T>(path: string, decode: (value: unknown) => T): T[] {
    if (!existsSync(path)) return [];
    const data = readFileSync(path);
    const { entries, intactBytes } = parseJsonLines(data, decode, path);
    if (intactBytes < statSync(path).size) {
      this.logger.warn('cut a torn write off the end of an event log', {
        path,
        droppedBytes: data.length - intactBytes,
      });
      // Later appends must start on a clean line.
      truncateSync(path, intactBytes);
    }
    return entries;
  }
}

function decodeTopicMeta(value: unknown, path: string): TopicMeta {
  const meta = value as Partial<TopicMeta> | null;
  if (
    typeof meta?.compacted !== 'boolean' ||
    !Number.isInteger(meta.partitions) ||
    (meta.partitions ?? 0) < 1
  ) {
    throw new Error(`${path}: invalid topic metadata`);
  }
  return { compacted: meta.compacted, partitions: meta.partitions as number };
}
