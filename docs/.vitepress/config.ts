import { defineConfig } from "vitepress";

/**
 * The kbts book. VitePress: a static site generator built on Vite (which the repo already uses for its
 * tests), whose pages are pre-rendered HTML (readable without JavaScript), with local full-text
 * search and a dead-link check at build time. Generated pages (reference/, parts/) come from
 * docs/gen/main.ts, which `make docs` runs first.
 */
export default defineConfig({
  title: "kbts",
  description: "Kubebuilder for TypeScript: scaffold, generate and run Kubernetes operators in TypeScript",
  // parts/ holds sections the pages include; they are no pages of their own.
  srcExclude: ["parts/**", "gen/**"],
  cleanUrls: false,
  lastUpdated: false,
  themeConfig: {
    search: { provider: "local" },
    outline: { level: [2, 3] },
    nav: [
      { text: "Quick start", link: "/guide/quick-start" },
      { text: "Tutorials", link: "/tutorials/cronjob" },
      { text: "Reference", link: "/reference/markers" },
      { text: "Operations", link: "/operations/deploying" },
    ],
    sidebar: [
      {
        text: "Guide",
        items: [
          { text: "Quick start", link: "/guide/quick-start" },
          { text: "A kbts project", link: "/guide/project" },
          { text: "API gates", link: "/guide/api-gates" },
          { text: "RBAC from the code", link: "/guide/rbac" },
        ],
      },
      {
        text: "Tutorials",
        items: [
          { text: "CronJob", link: "/tutorials/cronjob" },
          { text: "Multiversion", link: "/tutorials/multiversion" },
          { text: "GPUBudget", link: "/tutorials/gpubudget" },
          { text: "Memcached (deploy-image)", link: "/tutorials/memcached" },
          { text: "From controller-runtime", link: "/tutorials/from-controller-runtime" },
        ],
      },
      {
        text: "Reference",
        items: [
          { text: "Markers", link: "/reference/markers" },
          { text: "Commands and flags", link: "/reference/cli" },
          { text: "@kbts/runtime API", link: "/reference/runtime/" },
          { text: "Go types in TypeScript", link: "/reference/go-types" },
          { text: "Differences", link: "/reference/differences" },
        ],
      },
      {
        text: "Operations",
        items: [
          { text: "Deploying", link: "/operations/deploying" },
          { text: "Metrics and dashboards", link: "/operations/metrics" },
          { text: "envtest and the local cluster", link: "/operations/envtest" },
          { text: "Warm standbys and tracing", link: "/operations/ha-tracing" },
          { text: "Sharding across active replicas", link: "/operations/sharding" },
          { text: "Faults and the soak", link: "/operations/resilience" },
          { text: "Performance", link: "/operations/performance" },
          { text: "Kubebuilder parity", link: "/operations/parity" },
        ],
      },
    ],
  },
});
