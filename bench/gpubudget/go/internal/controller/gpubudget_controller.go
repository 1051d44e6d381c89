/*
Copyright 2026.

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
You may obtain a copy of the License at

    http://www.apache.org/licenses/LICENSE-2.0

Unless required by applicable law or agreed to in writing, software
distributed under the License is distributed on an "AS IS" BASIS,
WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
See the License for the specific language governing permissions and
limitations under the License.
*/

package controller

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/util/retry"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	logf "sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/metrics"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
	"sigs.k8s.io/controller-runtime/pkg/recorder"

	capacityv1alpha1 "lab.example.com/gpubudget/api/v1alpha1"
	"lab.example.com/gpubudget/internal/gpu"
)

// The operator's own series, beside controller-runtime's (the TypeScript scaffold's names).
var (
	allocatedGPUs = prometheus.NewGaugeVec(prometheus.GaugeOpts{
		Name: "gpubudget_allocated_gpus", Help: "GPUs held by the pods a GPUBudget counts.",
	}, []string{"namespace", "name"})
	maxGPUs = prometheus.NewGaugeVec(prometheus.GaugeOpts{
		Name: "gpubudget_max_gpus", Help: "The cap of a GPUBudget (spec.maxGPUs).",
	}, []string{"namespace", "name"})
	exceededGauge = prometheus.NewGaugeVec(prometheus.GaugeOpts{
		Name: "gpubudget_exceeded", Help: "1 when the pods a GPUBudget counts hold more GPUs than its cap, else 0.",
	}, []string{"namespace", "name"})
)

func init() {
	metrics.Registry.MustRegister(allocatedGPUs, maxGPUs, exceededGauge)
}

// GPUBudgetReconciler keeps each GPUBudget's status equal to what the pods of its namespace hold.
type GPUBudgetReconciler struct {
	client.Client
	Scheme *runtime.Scheme
	// APIReader reads a budget again after a write conflict (the API server, never stale).
	APIReader client.Reader
	Recorder  recorder.EventRecorder
	// MaxConcurrentReconciles is the most budgets reconciled at once.
	MaxConcurrentReconciles int
}

// +kubebuilder:rbac:groups=capacity.lab.example.com,resources=gpubudgets,verbs=get;list;watch
// +kubebuilder:rbac:groups=capacity.lab.example.com,resources=gpubudgets/status,verbs=update
// +kubebuilder:rbac:groups="",resources=pods,verbs=get;list;watch
// +kubebuilder:rbac:groups=events.k8s.io,resources=events,verbs=create;patch

// Reconcile counts the GPUs the budget's pods hold and writes status when it changed.
func (r *GPUBudgetReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	log := logf.FromContext(ctx)

	var budget capacityv1alpha1.GPUBudget
	if err := r.Get(ctx, req.NamespacedName, &budget); err != nil {
		if apierrors.IsNotFound(err) {
			// Deleted: nothing to clean up but our own series.
			for _, g := range []*prometheus.GaugeVec{allocatedGPUs, maxGPUs, exceededGauge} {
				g.DeleteLabelValues(req.Namespace, req.Name)
			}
			return ctrl.Result{}, nil
		}
		return ctrl.Result{}, err
	}

	selector := labels.Everything()
	if budget.Spec.Selector != nil {
		s, err := metav1.LabelSelectorAsSelector(budget.Spec.Selector)
		if err != nil {
			// An invalid selector matches nothing, as the TypeScript operator treats an unknown operator.
			s = labels.Nothing()
		}
		selector = s
	}
	resources := gpu.Resources(budget.Spec)
	var pods corev1.PodList
	if err := r.List(ctx, &pods, client.InNamespace(req.Namespace)); err != nil {
		return ctrl.Result{}, err
	}
	now := time.Now()
	usage := gpu.Count(pods.Items, selector, resources, now)
	limit := budget.Spec.MaxGPUs
	allocated := (usage.AllocatedMilli + 999) / 1000
	exceeded := usage.AllocatedMilli > limit*1000
	message := fmt.Sprintf("%s/%d GPUs", formatGPUs(usage.AllocatedMilli), limit)
	wasExceeded := isBudgetExceeded(budget.Status.Conditions)

	var nextExpiry time.Time
	written := false
	first := true
	err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		if !first {
			if err := r.APIReader.Get(ctx, req.NamespacedName, &budget); err != nil {
				return err
			}
		}
		first = false
		status := budget.Status.DeepCopy()
		status.AllocatedGPUs = &allocated
		status.PodCount = &usage.PodCount
		status.ObservedGeneration = budget.Generation
		status.ResourceClaimPods = usage.ResourceClaimPods
		// Expired reservations go; live ones stay.
		var live []capacityv1alpha1.GPUBudgetReservation
		for _, res := range status.Reservations {
			if res.ExpiresAt.After(now) {
				live = append(live, res)
				if nextExpiry.IsZero() || res.ExpiresAt.Before(&metav1.Time{Time: nextExpiry}) {
					nextExpiry = res.ExpiresAt.Time
				}
			}
		}
		status.Reservations = live
		ready := metav1.Condition{
			Type:               "Ready",
			Status:             metav1.ConditionTrue,
			Reason:             "WithinBudget",
			Message:            message,
			ObservedGeneration: budget.Generation,
		}
		if exceeded {
			ready.Status, ready.Reason = metav1.ConditionFalse, "BudgetExceeded"
		}
		meta.SetStatusCondition(&status.Conditions, ready)
		// An unchanged status is never rewritten, so no self-triggered churn.
		if equality.Semantic.DeepEqual(*status, budget.Status) {
			return nil
		}
		budget.Status = *status
		if err := r.Status().Update(ctx, &budget); err != nil {
			return err
		}
		written = true
		return nil
	})
	if err != nil {
		return ctrl.Result{}, err
	}

	allocatedGPUs.WithLabelValues(req.Namespace, req.Name).Set(float64(usage.AllocatedMilli) / 1000)
	maxGPUs.WithLabelValues(req.Namespace, req.Name).Set(float64(limit))
	exceededValue := 0.0
	if exceeded {
		exceededValue = 1
	}
	exceededGauge.WithLabelValues(req.Namespace, req.Name).Set(exceededValue)
	if written {
		log.Info("status updated", "allocatedGPUs", allocated, "maxGPUs", limit, "pods", usage.PodCount)
		unit := describeResources(resources)
		note := fmt.Sprintf("%s/%d %s allocated in %s", formatGPUs(usage.AllocatedMilli), limit, unit, req.Namespace)
		if exceeded && !wasExceeded {
			r.Recorder.Eventf(&budget, nil, corev1.EventTypeWarning, "BudgetExceeded", "Reconcile", "%s", note)
		} else if !exceeded && wasExceeded {
			r.Recorder.Eventf(&budget, nil, corev1.EventTypeNormal, "WithinBudget", "Reconcile", "%s", note)
		}
	}

	// Come back when something changes with time alone: a terminating pod's grace runs out, or a
	// reservation expires.
	wake := usage.NextChange
	if !nextExpiry.IsZero() && (wake.IsZero() || nextExpiry.Before(wake)) {
		wake = nextExpiry
	}
	if wake.IsZero() {
		return ctrl.Result{}, nil
	}
	return ctrl.Result{RequeueAfter: max(time.Millisecond, time.Until(wake)+50*time.Millisecond)}, nil
}

func isBudgetExceeded(conditions []metav1.Condition) bool {
	ready := meta.FindStatusCondition(conditions, "Ready")
	return ready != nil && ready.Status == metav1.ConditionFalse && ready.Reason == "BudgetExceeded"
}

// formatGPUs writes thousandths of a GPU as people read them: "6", "1.25".
func formatGPUs(milli int64) string {
	if milli%1000 == 0 {
		return strconv.FormatInt(milli/1000, 10)
	}
	return strconv.FormatFloat(float64(milli)/1000, 'f', -1, 64)
}

// describeResources names what a budget counts: "nvidia.com/gpu", or "GPUs (a, b×0.125)".
func describeResources(resources []capacityv1alpha1.GPUBudgetResource) string {
	if len(resources) == 1 && (resources[0].Weight == "" || resources[0].Weight == "1") {
		return resources[0].Name
	}
	parts := make([]string, len(resources))
	for i, r := range resources {
		parts[i] = r.Name
		if r.Weight != "" && r.Weight != "1" {
			parts[i] += "×" + r.Weight
		}
	}
	return "GPUs (" + strings.Join(parts, ", ") + ")"
}

// podCountMayChange drops pod updates that cannot change any budget (condition and IP updates,
// annotations...): only the phase, labels, deletion and the containers' resources matter.
var podCountMayChange = predicate.Funcs{
	UpdateFunc: func(e event.UpdateEvent) bool {
		a, okA := e.ObjectOld.(*corev1.Pod)
		b, okB := e.ObjectNew.(*corev1.Pod)
		if !okA || !okB {
			return true
		}
		return !equality.Semantic.DeepEqual(counted(a), counted(b))
	},
}

// countedFields is what of a pod the count reads (exported: Semantic.DeepEqual compares through them).
type countedFields struct {
	Phase          corev1.PodPhase
	Labels         map[string]string
	Deletion       *metav1.Time
	Grace          *int64
	Claims         int
	Containers     []corev1.ResourceRequirements
	InitContainers []corev1.Container
}

func counted(p *corev1.Pod) countedFields {
	f := countedFields{
		Phase: p.Status.Phase, Labels: p.Labels, Deletion: p.DeletionTimestamp,
		Grace: p.DeletionGracePeriodSeconds, Claims: len(p.Spec.ResourceClaims),
	}
	for _, c := range p.Spec.Containers {
		f.Containers = append(f.Containers, c.Resources)
	}
	for _, c := range p.Spec.InitContainers {
		f.InitContainers = append(f.InitContainers, corev1.Container{Resources: c.Resources, RestartPolicy: c.RestartPolicy})
	}
	return f
}

// budgetsInNamespace maps a pod to the budgets of its namespace (the cache's namespace index).
func (r *GPUBudgetReconciler) budgetsInNamespace(ctx context.Context, pod client.Object) []reconcile.Request {
	var budgets capacityv1alpha1.GPUBudgetList
	if err := r.List(ctx, &budgets, client.InNamespace(pod.GetNamespace())); err != nil {
		logf.FromContext(ctx).Error(err, "listing the budgets of a namespace", "namespace", pod.GetNamespace())
		return nil
	}
	requests := make([]reconcile.Request, len(budgets.Items))
	for i, b := range budgets.Items {
		requests[i] = reconcile.Request{NamespacedName: client.ObjectKeyFromObject(&b)}
	}
	return requests
}

// SetupWithManager registers the controller: For(GPUBudget) with the generation-changed predicate
// (status writes do not wake it), Watches(Pod) mapped to the budgets of the pod's namespace.
func (r *GPUBudgetReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).
		For(&capacityv1alpha1.GPUBudget{}, builder.WithPredicates(predicate.GenerationChangedPredicate{})).
		// Not the generation predicate here: a pod's phase (status) is exactly what changes what it holds.
		Watches(&corev1.Pod{}, handler.EnqueueRequestsFromMapFunc(r.budgetsInNamespace),
			builder.WithPredicates(podCountMayChange)).
		WithOptions(controller.Options{MaxConcurrentReconciles: r.MaxConcurrentReconciles}).
		Named("gpubudget").
		Complete(r)
}
