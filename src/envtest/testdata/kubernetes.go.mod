// A trimmed k8s.io/kubernetes go.mod with the shapes setup-envtest reads.
module k8s.io/kubernetes

go 1.26.0

godebug default=go1.26

require (
	github.com/spf13/cobra v1.10.2
	go.etcd.io/etcd/client/v3 v3.6.8
	k8s.io/api v0.0.0
	k8s.io/apiserver v0.0.0
)

require (
	go.etcd.io/etcd/server/v3 v3.6.8 // indirect
	k8s.io/streaming v0.0.0 // indirect
)

replace (
	k8s.io/api => ./staging/src/k8s.io/api
	k8s.io/apiserver => ./staging/src/k8s.io/apiserver
	k8s.io/streaming => ./staging/src/k8s.io/streaming
	github.com/example/forked => github.com/example/forked v1.2.3
)
