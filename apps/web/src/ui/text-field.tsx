import type { InputHTMLAttributes, ReactNode } from 'react';
import { useFieldDescription } from './field-description';
import { inputClass, labelClass } from './styles';

type TextFieldProps = InputHTMLAttributes<HTMLInputElement> & {
  label: string;
  hint?: ReactNode;
  /** Said under the input in red while set. */
  error?: ReactNode;
  /** Something beside the input, such as a send-code button. */
  addon?: ReactNode;
} & ({ name: string } | { id: string });

/** A label above its input (linked by id, `field-<name>` unless given), an addon beside it, a hint or an error under it. */
export function TextField({ label, hint, error, addon, id, name, className, ...input }: TextFieldProps) {
  const inputId = id ?? `field-${name ?? ''}`;
  const description = useFieldDescription({ hint, error }, input['aria-describedby']);
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={inputId} className={labelClass}>
        {label}
      </label>
      <div className="flex gap-2">
        <input
          id={inputId}
          name={name}
          className={`${inputClass} flex-1 ${className ?? ''}`}
          {...input}
          {...description.controlAria}
        />
        {addon}
      </div>
      {hint ? (
        <p id={description.hintId} className="text-xs text-slate-500">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={description.errorId} className="text-xs text-red-600">
          {error}
        </p>
      ) : null}
    </div>
  );
}
