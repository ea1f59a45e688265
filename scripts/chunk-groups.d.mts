export interface ModuleEdges {
  imports: string[];
  dynamicImports: string[];
}

export interface GroupRoots {
  src: string;
  light: string[];
  lightEntries: string[];
  commands: string[];
  runPath: string[];
}

export function chunkGroups(graph: Map<string, ModuleEdges>, roots: GroupRoots): (id: string) => 'start' | 'run' | 'run-shared' | undefined;
