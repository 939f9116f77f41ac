// Smaller types of the official SDK's surface that other modules refer to.

/** A plugin loaded from a directory (the `plugins` option, reloadPlugins({addPlugins})). */
export type SdkPluginConfig = {
  type: 'local';
  /** Absolute or relative path to the plugin directory. */
  path: string;
  skipMcpDiscovery?: boolean;
};
