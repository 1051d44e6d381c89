#!/bin/sh
# Stands in for `go` in unit tests: answers the commands setup-envtest runs, builds shell-script "binaries".
echo "$*" >> "$FAKE_GO_LOG"
case "$1" in
  mod)
    if [ "$2" = download ]; then printf '{"Path":"k8s.io/kubernetes","GoMod":"%s"}\n' "$FAKE_KK_GOMOD"; fi
    if [ "$2" = tidy ] && [ -n "$FAKE_GO_FAIL_TIDY" ]; then echo "go: tidy exploded" >&2; exit 1; fi
    ;;
  list) echo "k8s.io/kubernetes v1.35.0 v1.35.4 v1.36.0 v1.36.2 v1.37.0-alpha.1" ;;
  build)
    sleep "${FAKE_GO_BUILD_SECONDS:-0}"
    ver=$(echo "$*" | sed -n 's/.*component-base\/version.gitVersion=\(v[0-9.]*\).*/\1/p')
    shift
    while [ $# -gt 0 ]; do
      if [ "$1" = -o ]; then out="$2"; fi
      shift
    done
    case "$out" in
      */) for b in kube-apiserver kubectl; do printf '#!/bin/sh\necho "Kubernetes %s"\n' "$ver" > "$out$b"; chmod +x "$out$b"; done ;;
      *) printf '#!/bin/sh\necho etcd\n' > "$out"; chmod +x "$out" ;;
    esac
    ;;
esac
