import { Entity, PrimaryKey, Property, type Opt } from '@mikro-orm/core';
import type { ChatMessageRole } from '@tollgate/contracts';

/** One message of a chat: its content (text or OpenAI content parts, as JSON) sealed with the owner's data key. */
@Entity({ tableName: 'messages' })
export class Message {
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  @Property({ type: 'integer' })
  chatId!: number;

  @Property({ type: 'text' })
  role!: ChatMessageRole;

  @Property({ type: 'text' })
  contentSealed!: string;

  /** SPEC §3: a JSON string (model, token counts, cost, finish reason); never any text of the conversation. */
  @Property({ type: 'text' })
  metadata: Opt<string> = '{}';

  @Property({ type: 'datetime' })
  createdAt: Opt<Date> = new Date();
}
