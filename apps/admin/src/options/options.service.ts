import { Injectable } from '@nestjs/common';
import type { AuditActor } from '@tollgate/persistence';
import {
  ErrorCode,
  NOTICE_EN_OPTION_KEY,
  NOTICE_OPTION_KEY,
  settingValueProblem,
  type OptionView,
  type SettingProblem,
  type UpdateOptionRequest,
} from '@tollgate/contracts';
import type { AppException, Locale } from '@tollgate/platform';
import { localizedException } from '../i18n/messages';
import { OptionsRepository } from './options.repository';

/** Runtime settings (new-api's options) and the notice kept among them. */
@Injectable()
export class OptionsService {
  constructor(private readonly options: OptionsRepository) {}

  async list(): Promise<OptionView[]> {
    return (await this.options.all()).map(({ key, value }) => ({ key, value }));
  }

  /** Keeps a setting; a catalogued one only with a value its service can apply. */
  async set(actor: AuditActor, request: UpdateOptionRequest, locale: Locale): Promise<OptionView> {
    const problem = settingValueProblem(request.key, request.value);
    if (problem) throw settingRefused(request.key, problem, locale);
    const { key, value } = await this.options.set(request.key, request.value, actor);
    return { key, value };
  }

  /**
   * The notice shown to every visitor; empty when none is set. An English reader (`language` 'en')
   * gets its English text when the operators wrote one, else the default (Russian) text.
   */
  async notice(language?: string): Promise<string> {
    if (language === 'en') {
      const english = (await this.options.find(NOTICE_EN_OPTION_KEY))?.value ?? '';
      if (english.trim() !== '') return english;
    }
    return (await this.options.find(NOTICE_OPTION_KEY))?.value ?? '';
  }
}

/** 400 naming the setting and what its value must be, in the caller's language. */
function settingRefused(key: string, { kind, ...params }: SettingProblem, locale: Locale): AppException {
  return localizedException(ErrorCode.ValidationFailed, `setting_${kind}`, locale, { key, ...params });
}
