import { z } from 'zod';

const secretSchemas = new WeakSet<z.ZodTypeAny>();

/** Marks a configuration field as secret: its value is never printed, in errors or in the start-up log. */
export const secret = <T extends z.ZodTypeAny>(schema: T): T => {
  secretSchemas.add(schema);
  return schema;
};

/** Whether the field, or the schema it wraps (`.optional()`, `.default()`, `.transform()`…), was marked secret. */
export const isSecretSchema = (schema: z.ZodTypeAny): boolean => {
  let current: z.ZodTypeAny | undefined = schema;
  while (current) {
    if (secretSchemas.has(current)) return true;
    current = innerSchema(current);
  }
  return false;
};

const innerSchema = (schema: z.ZodTypeAny): z.ZodTypeAny | undefined => {
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodNullable)
    return schema.unwrap() as z.ZodTypeAny;
  if (schema instanceof z.ZodDefault) return schema.removeDefault() as z.ZodTypeAny;
  if (schema instanceof z.ZodEffects) return schema.innerType() as z.ZodTypeAny;
  if (schema instanceof z.ZodPipeline) return schema._def.in as z.ZodTypeAny;
  if (schema instanceof z.ZodBranded) return schema.unwrap() as z.ZodTypeAny;
  if (schema instanceof z.ZodCatch) return schema.removeCatch() as z.ZodTypeAny;
  return undefined;
};
