import type { ChatView } from '@tollgate/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../../ui/dialog';
import { buttonClass, inputClass, labelClass } from '../../../ui/styles';
import { TextAreaField } from '../../../ui/field';
import { useChatMutations } from '../use-chat-queries';

interface Props {
  chat: ChatView;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/** The chat's temperature (empty = the model's default) and system prompt. */
export function ChatSettingsDialog({ chat, open, onOpenChange }: Props) {
  const { t } = useTranslation('chat');
  const { update } = useChatMutations();
  const [temperature, setTemperature] = useState(chat.temperature === null ? '' : String(chat.temperature));
  const [systemPrompt, setSystemPrompt] = useState(chat.system_prompt);
  // A Russian keyboard's decimal key types a comma ("0,7"): taken as the point it means.
  const parsed = temperature.trim() === '' ? null : Number(temperature.trim().replace(',', '.'));
  const valid = parsed === null || (Number.isFinite(parsed) && parsed >= 0 && parsed <= 2);
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title={t('settings_title')}>
      <form
        className="flex flex-col gap-4"
        onSubmit={(event) => {
          event.preventDefault();
          if (!valid) return;
          update.mutate(
            { id: chat.id, changes: { temperature: parsed, system_prompt: systemPrompt } },
            { onSuccess: () => onOpenChange(false) },
          );
        }}
      >
        <label className="flex flex-col gap-1">
          <span className={labelClass}>{t('temperature')}</span>
          <input
            className={inputClass}
            inputMode="decimal"
            placeholder={t('temperature_default')}
            value={temperature}
            onChange={(event) => setTemperature(event.target.value)}
            aria-invalid={!valid}
          />
          {!valid ? <span className="text-xs text-red-600">{t('temperature_range')}</span> : null}
        </label>
        <TextAreaField
          label={t('system_prompt')}
          className="min-h-32"
          maxLength={8000}
          placeholder={t('system_prompt_placeholder')}
          value={systemPrompt}
          onChange={(event) => setSystemPrompt(event.target.value)}
        />
        <div className="flex justify-end">
          <button type="submit" className={buttonClass.primary} disabled={!valid || update.isPending}>
            {t('save')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
