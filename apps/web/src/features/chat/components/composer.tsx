import { useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { buttonClass, inputClass } from '../../../ui/styles';

interface ComposerProps {
  streaming: boolean;
  disabled?: boolean;
  /** Resolves to false when the server refused the message without keeping it: the text comes back. */
  onSend: (text: string) => Promise<boolean>;
  onStop: () => void;
}

/**
 * Whether the user types on a touch screen's keyboard, which has no Shift+Enter: there Enter starts a
 * new line and the button sends, as in the chat apps people know from their phones.
 */
function typesOnTouchKeyboard(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia('(pointer: coarse)').matches;
}

/**
 * The message box: Enter sends, Shift+Enter starts a new line (on a touch screen Enter starts a new
 * line); while an answer streams, Stop. A message the server refused without keeping it is put back,
 * so the user does not type it again.
 */
export function Composer({ streaming, disabled, onSend, onStop }: ComposerProps) {
  const { t } = useTranslation('chat');
  const [text, setText] = useState('');
  const box = useRef<HTMLTextAreaElement>(null);
  const send = () => {
    if (streaming || disabled || text.trim() === '') return;
    const sent = text;
    setText('');
    void onSend(sent).then((kept) => {
      if (!kept) setText((current) => (current === '' ? sent : current));
    });
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (
      event.key === 'Enter' &&
      !event.shiftKey &&
      !event.nativeEvent.isComposing &&
      !typesOnTouchKeyboard()
    ) {
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
        ref={box}
        className={`${inputClass} max-h-48 min-h-[2.75rem] resize-y`}
        rows={2}
        aria-label={t('message_label')}
        placeholder={t(typesOnTouchKeyboard() ? 'message_placeholder_touch' : 'message_placeholder')}
        value={text}
        disabled={disabled}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={onKeyDown}
      />
      {streaming ? (
        <button
          type="button"
          className={buttonClass.secondary}
          onClick={() => {
            onStop();
            // Stop gives way to Send: the keyboard user goes on in the message box, not from the page's top.
            box.current?.focus();
          }}
        >
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
