/*
 * The example mappings (docs/examples: real towns' own layouts), offered in the upload dialog as files to
 * start a mapping from. Read from that folder by the build, so the dialog lists exactly what is there:
 * each file is emitted as an asset of its own (never inlined) and its description comes with it.
 */
const urls = import.meta.glob<string>('../../../../../../docs/examples/*.json', {
  query: '?url&no-inline',
  import: 'default',
  eager: true,
});
const descriptions = import.meta.glob<string>('../../../../../../docs/examples/*.json', {
  import: 'description',
  eager: true,
});

export interface ExampleMapping {
  /** The file's name, as it downloads. */
  file: string;
  url: string;
  description: string;
}

export const EXAMPLE_MAPPINGS: ExampleMapping[] = Object.keys(urls)
  .sort()
  .map((path) => ({
    file: path.slice(path.lastIndexOf('/') + 1),
    url: urls[path]!,
    description: descriptions[path] ?? '',
  }));
