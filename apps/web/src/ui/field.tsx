import type { InputHTMLAttributes, ReactNode, SelectHTMLAttributes, TextareaHTMLAttributes } from 'react';
import { inputClass, labelClass } from './styles';

interface FieldProps {
  label: ReactNode;
  hint?: ReactNode;
  /** Said under the control in red while set. */
  error?: ReactNode;
}

/** A label wrapped around its control (so the label names it), with a hint or an error under it. */
export function Field({ label, hint, error, children }: FieldProps & { children: ReactNode }) {
  return (
    <label className="flex flex-col gap-1">
      <span className={labelClass}>{label}</span>
      {children}
      {hint ? <span className="text-xs text-slate-500">{hint}</span> : null}
      {error ? <span className="text-xs text-red-600">{error}</span> : null}
    </label>
  );
}

const controlClass = (extra: string | undefined) => (extra ? `${inputClass} ${extra}` : inputClass);

export function InputField({
  label,
  hint,
  error,
  className,
  ...input
}: FieldProps & InputHTMLAttributes<HTMLInputElement>) {
  return (
    <Field label={label} hint={hint} error={error}>
      <input className={controlClass(className)} {...input} />
    </Field>
  );
}

export function SelectField({
  label,
  hint,
  error,
  className,
  children,
  ...select
}: FieldProps & SelectHTMLAttributes<HTMLSelectElement>) {
  return (
    <Field label={label} hint={hint} error={error}>
      <select className={controlClass(className)} {...select}>
        {children}
      </select>
    </Field>
  );
}

export function TextAreaField({
  label,
  hint,
  error,
  className,
  ...textarea
}: FieldProps & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  return (
    <Field label={label} hint={hint} error={error}>
      <textarea className={controlClass(className)} {...textarea} />
    </Field>
  );
}

/** A checkbox with its label (the children) beside it. */
export function CheckboxField({
  children,
  className,
  ...input
}: { children: ReactNode } & Omit<InputHTMLAttributes<HTMLInputElement>, 'type'>) {
  return (
    <label className={`flex items-start gap-2 text-sm text-slate-700 ${className ?? ''}`}>
      <input type="checkbox" className="mt-0.5 size-4 shrink-0 accent-indigo-600" {...input} />
      <span>{children}</span>
    </label>
  );
}
