import { randomBytes } from 'node:crypto';

/** Lower-case words joined by dashes, at most 40 characters; `run` when nothing is left. */
export function slugify(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/g, '');
  return slug === '' ? 'run' : slug;
}

const twoDigits = (value: number): string => String(value).padStart(2, '0');

/** `yyyymmdd-hhmmss` in local time, the way a person reads a folder listing. */
export function formatStamp(date: Date): string {
  return (
    `${date.getFullYear()}${twoDigits(date.getMonth() + 1)}${twoDigits(date.getDate())}-` +
    `${twoDigits(date.getHours())}${twoDigits(date.getMinutes())}${twoDigits(date.getSeconds())}`
  );
}

/** Six hex digits: enough that two runs started in the same second with the same name differ. */
export function shortId(): string {
  return randomBytes(3).toString('hex');
}

/** `<yyyymmdd-hhmmss>-<name>-<short id>`, which is also the run's id. */
export function runFolderName(name: string, date: Date, id: string = shortId()): string {
  return `${formatStamp(date)}-${slugify(name)}-${id}`;
}
