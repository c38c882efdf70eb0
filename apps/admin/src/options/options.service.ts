import { Injectable } from '@nestjs/common';
import type { AuditActor } from '@tollgate/persistence';
import { NOTICE_OPTION_KEY, type OptionView, type UpdateOptionRequest } from '@tollgate/contracts';
import { OptionsRepository } from './options.repository';

/** Runtime settings (new-api's options) and the notice kept among them. */
@Injectable()
export class OptionsService {
  constructor(private readonly options: OptionsRepository) {}

  async list(): Promise<OptionView[]> {
    return (await this.options.all()).map(({ key, value }) => ({ key, value }));
  }

  async set(actor: AuditActor, request: UpdateOptionRequest): Promise<OptionView> {
    const { key, value } = await this.options.set(request.key, request.value, actor);
    return { key, value };
  }

  /** The notice shown to every visitor; empty when none is set. */
  async notice(): Promise<string> {
    return (await this.options.find(NOTICE_OPTION_KEY))?.value ?? '';
  }
}
