import { z } from 'zod';
import { jsonSchemaOf, valueTypeOf } from './setting-limits.js';
import { metaOf } from './setting-meta.js';
import { modeNames, settingsShape, type ModeName } from './modes.js';

/** One field of the web start form, as plain JSON the page can import without zod. */
export interface FormField {
  key: string;
  label: string;
  /** The field's accessible name. */
  aria: string;
  placeholder?: string;
  kind: 'text' | 'path' | 'paths' | 'integer' | 'number' | 'choice' | 'boolean';
  required: boolean;
  min?: number;
  max?: number;
  choices?: string[];
  default?: string | number | boolean;
}

function kindOf(schema: z.ZodType, path: boolean): FormField['kind'] {
  const type = valueTypeOf(schema);
  if (type instanceof z.ZodArray) return 'paths';
  if (path) return 'path';
  if (type instanceof z.ZodBoolean) return 'boolean';
  if (type instanceof z.ZodEnum) return 'choice';
  if (type instanceof z.ZodNumber)
    return jsonSchemaOf(type).type === 'integer' ? 'integer' : 'number';
  return 'text';
}

/** A number box's `min`: an exclusive bound of a whole number is the next number up. */
function lowest(
  minimum: number | undefined,
  exclusiveMinimum: number | undefined,
  whole: boolean,
): { min?: number } {
  if (minimum !== undefined) return { min: minimum };
  if (exclusiveMinimum === undefined) return {};
  return { min: whole ? exclusiveMinimum + 1 : exclusiveMinimum };
}

/** The form's fields of a mode: the settings whose meta has `form`, in the schema's order. */
export function formFields(mode: ModeName): FormField[] {
  const fields: FormField[] = [];
  for (const [key, schema] of Object.entries(settingsShape(mode))) {
    const meta = metaOf(key, schema);
    if (meta.form === undefined) continue;
    const limits = jsonSchemaOf(valueTypeOf(schema));
    const defaultValue: unknown = schema.safeParse(undefined).data;
    const type = valueTypeOf(schema);
    fields.push({
      key,
      label: meta.form.label,
      aria: meta.form.aria ?? meta.form.label,
      ...(meta.form.placeholder === undefined ? {} : { placeholder: meta.form.placeholder }),
      kind: kindOf(schema, meta.path !== undefined),
      required: !schema.safeParse(undefined).success,
      ...lowest(limits.minimum, limits.exclusiveMinimum, limits.type === 'integer'),
      ...(limits.maximum === undefined || limits.maximum >= Number.MAX_SAFE_INTEGER
        ? {}
        : { max: limits.maximum }),
      ...(type instanceof z.ZodEnum ? { choices: type.options.map(String) } : {}),
      ...(typeof defaultValue === 'string' ||
      typeof defaultValue === 'number' ||
      typeof defaultValue === 'boolean'
        ? { default: defaultValue }
        : {}),
    });
  }
  return fields;
}

/** Every mode's form fields: what `web/src/model/mode-fields.json` holds. */
export function allFormFields(): Record<ModeName, FormField[]> {
  return Object.fromEntries(modeNames.map((mode) => [mode, formFields(mode)])) as Record<
    ModeName,
    FormField[]
  >;
}
