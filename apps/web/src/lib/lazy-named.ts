import { lazy, type LazyExoticComponent, type ReactNode } from 'react';

type FunctionComponentOf<Props> = (props: Props) => ReactNode;

/**
 * `React.lazy` for a named export: the module becomes its own chunk, loaded the first time the
 * component renders (inside a Suspense boundary).
 */
export function lazyNamed<Name extends string, Props extends object>(
  load: () => Promise<Record<Name, FunctionComponentOf<Props>>>,
  name: Name,
): LazyExoticComponent<FunctionComponentOf<Props>> {
  return lazy(async () => ({ default: (await load())[name] }));
}
