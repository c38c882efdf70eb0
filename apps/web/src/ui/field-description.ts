import { useId, type ReactNode } from 'react';

/** The ids a control's hint and error get, and the ARIA attributes that point the control at them. */
export interface FieldDescription {
  hintId: string;
  errorId: string;
  controlAria: { 'aria-describedby'?: string; 'aria-invalid'?: true };
}

/**
 * A hint and an error describe their control (read after its name) rather than being part of the
 * name, which a label around them would make them; the caller's own aria-describedby is kept.
 */
export function useFieldDescription(
  { hint, error }: { hint?: ReactNode; error?: ReactNode },
  ownDescribedBy: string | undefined,
): FieldDescription {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [ownDescribedBy, error ? errorId : undefined, hint ? hintId : undefined]
    .filter(Boolean)
    .join(' ');
  return {
    hintId,
    errorId,
    controlAria: {
      ...(describedBy ? { 'aria-describedby': describedBy } : {}),
      ...(error ? { 'aria-invalid': true as const } : {}),
    },
  };
}
