// Package patched: webhook markers whose patch= is a strategic merge patch on the generated webhook.
package patched

// +kubebuilder:webhook:path=/validate-ships-kbts-test-v1-ship,mutating=false,failurePolicy=fail,sideEffects=None,groups=ships.kbts.test,resources=ships,verbs=create;update,versions=v1,name=vship-v1.kb.io,admissionReviewVersions=v1,patch=`{"clientConfig":{"service":{"port":9443}}}`
// +kubebuilder:webhook:path=/validate-ships-kbts-test-v1-dock,mutating=false,failurePolicy=fail,sideEffects=None,groups=ships.kbts.test,resources=docks,verbs=create,versions=v1,name=vdock-v1.kb.io,admissionReviewVersions=v1,timeoutSeconds=5,patch=`{"timeoutSeconds":null,"rules":[{"apiGroups":["ships.kbts.test"],"apiVersions":["v1"],"operations":["CREATE","UPDATE"],"resources":["docks","docks/status"]}],"objectSelector":{"matchExpressions":[{"key":"tier","operator":"In","values":["a","b"]}]}}`
// +kubebuilder:webhook:path=/mutate-ships-kbts-test-v1-ship,mutating=true,failurePolicy=fail,sideEffects=None,groups=ships.kbts.test,resources=ships,verbs=create;update,versions=v1,name=mship-v1.kb.io,admissionReviewVersions=v1,reinvocationPolicy=IfNeeded,patch=`{"matchConditions":[{"name":"not-system","expression":"!request.userInfo.username.startsWith('system:')"},{"name":"has-labels","expression":"has(object.metadata.labels)"}],"namespaceSelector":{"matchLabels":{"env":"prod"}},"reinvocationPolicy":"Never"}`
// +kubebuilder:webhook:path=/mutate-ships-kbts-test-v1-dock,mutating=true,failurePolicy=ignore,sideEffects=None,groups=ships.kbts.test,resources=docks,verbs=create,versions=v1,name=mdock-v1.kb.io,admissionReviewVersions=v1,patch=`{"clientConfig":{"service":{"$patch":"replace","name":"docks-webhook","namespace":"docks","path":"/mutate-docks"}}}`

// PatchedWebhook handles admission.
type PatchedWebhook struct{}
