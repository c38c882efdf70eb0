import { TOPICS, type CatalogOption } from '@tollgate/contracts';
import type { OutgoingEvent } from '@tollgate/events';
import type { Option } from './option.entity';

/** The setting on the compacted catalog.option topic, keyed by its name. */
export function catalogOptionEvent(option: Option): OutgoingEvent {
  const value: CatalogOption = {
    v: 1,
    key: option.key,
    value: option.value,
    updated_at: Math.floor(option.updatedAt.getTime() / 1000),
  };
  return { topic: TOPICS.catalogOption.name, key: option.key, value };
}
