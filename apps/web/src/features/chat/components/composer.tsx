import { useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { buttonClass, inputClass } from '../../../ui/styles';

interface ComposerProps {
  streaming: boolean;
  disabled?: boolean;
  onSend: (text: string) => void;
  onStop: () => void;
}

/** The message box: Enter sends, Shift+Enter starts a new line; while an answer streams, Stop. */
export function Composer({ streaming, disabled, onSend, onStop }: ComposerProps) {
  const { t } = useTranslation('chat');
  const [text, setText] = useState('');
  const send = () => {
    if (streaming || disabled || text.trim() === '') return;
    onSend(text);
    setText('');
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      send();
    }
  };
  return (
    <form
      className="flex items-end gap-2 border-t border-slate-200 bg-white p-3"
      onSubmit={(event) => {
        event.preventDefault();
        send();
      }}
    >
      <textarea
        className={`${inputClass} max-h-48 min-h-[2.75rem] resize-y`}
        rows={2}
        aria-label={t('message_label')}
        placeholder={t('message_placeholder')}
        value={text}
        disabled={disabled}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={onKeyDown}
      />
      {streaming ? (
        <button type="button" className={buttonClass.secondary} onClick={onStop}>
          {t('stop')}
        </button>
      ) : (
        <button type="submit" className={buttonClass.primary} disabled={disabled || text.trim() === ''}>
          {t('send')}
        </button>
      )}
    </form>
  );
}
