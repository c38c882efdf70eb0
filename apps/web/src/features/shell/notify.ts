import { toast, type ExternalToast } from 'sonner';

/** SPEC §9 durations. */
export const TOAST_DURATION_MS = 5000;
export const SYSTEM_TOAST_DURATION_MS = 99999;

type ToastOptions = Pick<ExternalToast, 'description' | 'id'>;

export interface LoadingTexts<T> {
  loading: string;
  success: string | ((result: T) => string);
  error: string | ((error: unknown) => string);
}

/**
 * The SPEC §4 toast variants over sonner. Every variant has a close control and auto-dismisses;
 * a loading toast has neither until its task settles, then shows the success or error text.
 */
export const notify = {
  default: (title: string, options?: ToastOptions) =>
    toast(title, { duration: TOAST_DURATION_MS, ...options }),
  success: (title: string, options?: ToastOptions) =>
    toast.success(title, { duration: TOAST_DURATION_MS, ...options }),
  destructive: (title: string, options?: ToastOptions) =>
    toast.error(title, { duration: TOAST_DURATION_MS, ...options }),
  warning: (title: string, options?: ToastOptions) =>
    toast.warning(title, { duration: TOAST_DURATION_MS, ...options }),
  system: (title: string, options?: ToastOptions) =>
    toast.info(title, { duration: SYSTEM_TOAST_DURATION_MS, ...options }),
  loading<T>(task: Promise<T>, texts: LoadingTexts<T>): Promise<T> {
    toast.promise(task, { loading: texts.loading, success: texts.success, error: texts.error });
    return task;
  },
};
