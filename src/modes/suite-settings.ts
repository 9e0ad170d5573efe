import type { z } from 'zod';
import { metaOf } from './setting-meta.js';

/** A setting's key in an eval suite (YAML): `budgetMinutes` → `budget_minutes`. */
export function suiteKeyOf(key: string, schema: z.ZodType): string {
  return (
    metaOf(key, schema).suiteKey ?? key.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`)
  );
}
