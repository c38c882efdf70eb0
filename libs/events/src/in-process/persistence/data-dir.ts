import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  truncateSync,
  unlinkSync,
} from 'node:fs';
import { mkdir, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { EventBusLogger } from '../../shared/logger';
import type { LogRecord } from '../log-record';
import { AppendFile } from './append-file';
import { writeFileAtomic, writeFileAtomicSync, writeLinesAtomic } from './atomic-file';
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

export interface StoredPartition {
  /** Every segment's records in offset order, torn tails already cut off. */
  records: LogRecord[];
  /** Each segment's base offset, oldest first: no record of a segment is below its base. */
  segments: number[];
}

export interface StoredTopic extends TopicMeta {
  name: string;
  /** What each partition holds, by partition number. */
  contents: StoredPartition[];
}

/**
 * Where one partition's records live: segment files named after their base offset, appended as
 * records come. Retention deletes the oldest segment whole; compaction (one segment) rewrites it.
 */
export interface PartitionStorage {
  /** Appends to segment `base`, which is created by its first append. */
  append(base: number, records: LogRecord[]): Promise<void>;
  deleteSegment(base: number): Promise<void>;
  deleteSegmentSync(base: number): void;
  rewriteSegment(base: number, records: readonly LogRecord[]): Promise<void>;
  rewriteSegmentSync(base: number, records: readonly LogRecord[]): void;
}

export interface OffsetsStorage {
  append(entries: OffsetEntry[]): Promise<void>;
  rewrite(entries: OffsetEntry[]): Promise<void>;
}

/** A segment file's name: its base offset, zero-padded so that names sort in offset order. */
const SEGMENT_NAME = /^(\d{20})\.jsonl$/;
const segmentName = (base: number) => `${String(base).padStart(20, '0')}.jsonl`;

/**
 * Layout: `offsets.jsonl` (committed offsets, last line per group/topic/partition
 * wins), and `topics/<topic>/topic.json` plus `topics/<topic>/<partition>/<base offset>.jsonl`, a
 * partition's segments. Before segments a partition was one file, `topics/<topic>/<partition>.jsonl`:
 * loading moves it into the partition's folder as its first segment.
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
      const contents = Array.from({ length: meta.partitions }, (_, partition) =>
        this.loadPartition(name, partition),
      );
      topics.push({ name, ...meta, contents });
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
    const dir = this.partitionDir(topic, partition);
    mkdirSync(dir, { recursive: true });
    const path = (base: number) => join(dir, segmentName(base));
    // One descriptor, kept open on the segment appended to; a new segment closes the one before.
    let active: { base: number; file: AppendFile } | undefined;
    const fileFor = (base: number) => {
      if (active?.base !== base) {
        if (active) this.closeFile(active.file);
        active = { base, file: this.appendFile(path(base)) };
      }
      return active.file;
    };
    const forget = (base: number) => {
      if (active?.base !== base) return;
      this.closeFile(active.file);
      active = undefined;
    };
    return {
      append: (base, records) => fileFor(base).append(records.map(encodeRecordLine).join('')),
      deleteSegment: async (base) => {
        forget(base);
        await unlink(path(base));
      },
      deleteSegmentSync: (base) => {
        forget(base);
        unlinkSync(path(base));
      },
      rewriteSegment: async (base, records) => {
        await writeLinesAtomic(path(base), records, encodeRecordLine);
        forget(base);
      },
      rewriteSegmentSync: (base, records) => {
        writeFileAtomicSync(path(base), records.map(encodeRecordLine).join(''));
        forget(base);
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

  private closeFile(file: AppendFile): void {
    file.close();
    this.files.delete(file);
  }

  private partitionDir(topic: string, partition: number): string {
    return join(this.topicsDir, topic, String(partition));
  }

  /** A partition's segments, oldest first; a partition kept in one file before segments is moved in first. */
  private loadPartition(topic: string, partition: number): StoredPartition {
    const dir = this.partitionDir(topic, partition);
    const bases = this.segmentBases(dir);
    const legacyPath = join(this.topicsDir, topic, `${partition}.jsonl`);
    if (existsSync(legacyPath)) {
      if (bases.length > 0) {
        throw new Error(`${legacyPath}: a partition file beside the partition's segments in ${dir}`);
      }
      const records = this.loadJsonLines(legacyPath, decodeRecordLine);
      const base = records.length > 0 ? records[0].offset : 0;
      mkdirSync(dir, { recursive: true });
      // One rename: a crash before it leaves the old file (moved at the next start), after it the segment.
      renameSync(legacyPath, join(dir, segmentName(base)));
      this.logger.info('moved a partition file into a segment of its partition', { topic, partition, base });
      return { records, segments: [base] };
    }
    const records: LogRecord[] = [];
    for (const base of bases) {
      const segmentPath = join(dir, segmentName(base));
      const segment = this.loadJsonLines(segmentPath, decodeRecordLine);
      if (segment.length > 0 && segment[0].offset < base) {
        throw new Error(`${segmentPath}: offset ${segment[0].offset} below the segment's base`);
      }
      for (const record of segment) records.push(record);
    }
    return { records, segments: bases };
  }

  /** Base offsets of the segments in `dir`, ascending; an interrupted rewrite's temporary file goes. */
  private segmentBases(dir: string): number[] {
    if (!existsSync(dir)) return [];
    const bases: number[] = [];
    for (const name of readdirSync(dir)) {
      const match = SEGMENT_NAME.exec(name);
      if (match) bases.push(Number(match[1]));
      else if (name.endsWith('.tmp')) rmSync(join(dir, name), { force: true });
    }
    return bases.sort((a, b) => a - b);
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
