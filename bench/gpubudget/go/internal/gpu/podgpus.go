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

// Package gpu counts what pods hold of a GPUBudget's extended resources, with the same rules as the
// TypeScript scaffold's internal/gpu/podgpus.ts: the scheduler's effective request per pod
// (component-helpers' PodRequests: containers, sidecars, init containers, overhead), each resource
// times its weight, and ResourceQuota's rule for which pods count.
package gpu

import (
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	resourcehelper "k8s.io/component-helpers/resource"

	capacityv1alpha1 "lab.example.com/gpubudget/api/v1alpha1"
)

// DefaultResourceName is what a budget counts when it names no resource (the CRD defaults it too).
const DefaultResourceName = "nvidia.com/gpu"

// Resources is what a budget counts: spec.resources when set, else spec.resourceName with weight 1.
func Resources(spec capacityv1alpha1.GPUBudgetSpec) []capacityv1alpha1.GPUBudgetResource {
	if len(spec.Resources) > 0 {
		return spec.Resources
	}
	name := spec.ResourceName
	if name == "" {
		name = DefaultResourceName
	}
	return []capacityv1alpha1.GPUBudgetResource{{Name: name}}
}

// CountsUntil is when a pod stops counting by ResourceQuota's rule: never for a Succeeded or Failed
// pod (the zero time), at deletionTimestamp plus the grace period for a terminating one, and not
// until the far future otherwise (ok is false then).
func CountsUntil(pod *corev1.Pod) (until time.Time, ok bool) {
	if pod.Status.Phase == corev1.PodSucceeded || pod.Status.Phase == corev1.PodFailed {
		return time.Time{}, true
	}
	if pod.DeletionTimestamp == nil || pod.DeletionGracePeriodSeconds == nil {
		return time.Time{}, false
	}
	return pod.DeletionTimestamp.Add(time.Duration(*pod.DeletionGracePeriodSeconds) * time.Second), true
}

// PodMilliGPUs is what a pod holds under a budget's resources, in thousandths of a GPU.
func PodMilliGPUs(pod *corev1.Pod, resources []capacityv1alpha1.GPUBudgetResource) int64 {
	requests := resourcehelper.PodRequests(pod, resourcehelper.PodResourcesOptions{})
	var milli int64
	for _, r := range resources {
		q, found := requests[corev1.ResourceName(r.Name)]
		if !found || q.IsZero() {
			continue
		}
		weight := int64(1000)
		if r.Weight != "" {
			if w, err := resource.ParseQuantity(r.Weight); err == nil {
				weight = w.MilliValue()
			}
		}
		milli += q.Value() * weight
	}
	return milli
}

// Usage is what the pods a budget selects hold at one moment.
type Usage struct {
	AllocatedMilli    int64
	PodCount          int32
	ResourceClaimPods int32
	// NextChange is when the next counted terminating pod stops counting; zero when none will.
	NextChange time.Time
}

// Count sums what the pods of one namespace that a budget selects hold at now.
func Count(pods []corev1.Pod, selector labels.Selector, resources []capacityv1alpha1.GPUBudgetResource, now time.Time) Usage {
	var u Usage
	for i := range pods {
		pod := &pods[i]
		until, ends := CountsUntil(pod)
		if ends && !until.After(now) {
			continue
		}
		if !selector.Matches(labels.Set(pod.Labels)) {
			continue
		}
		if len(pod.Spec.ResourceClaims) > 0 {
			u.ResourceClaimPods++
		}
		milli := PodMilliGPUs(pod, resources)
		if milli <= 0 {
			continue
		}
		u.AllocatedMilli += milli
		u.PodCount++
		if ends && (u.NextChange.IsZero() || until.Before(u.NextChange)) {
			u.NextChange = until
		}
	}
	return u
}

// Slim is a cache transform for Pods: it keeps only what counting needs, as the TypeScript scaffold's
// slimPod does, so tens of thousands of cached pods cost a fraction of their full size.
func Slim(obj any) (any, error) {
	pod, ok := obj.(*corev1.Pod)
	if !ok {
		return obj, nil
	}
	keep := func(cs []corev1.Container) []corev1.Container {
		if cs == nil {
			return nil
		}
		out := make([]corev1.Container, len(cs))
		for i, c := range cs {
			out[i] = corev1.Container{Name: c.Name, RestartPolicy: c.RestartPolicy, Resources: corev1.ResourceRequirements{
				Requests: c.Resources.Requests, Limits: c.Resources.Limits,
			}}
		}
		return out
	}
	claims := make([]corev1.PodResourceClaim, len(pod.Spec.ResourceClaims))
	for i, c := range pod.Spec.ResourceClaims {
		claims[i] = corev1.PodResourceClaim{Name: c.Name}
	}
	slim := &corev1.Pod{
		TypeMeta: pod.TypeMeta,
		ObjectMeta: metav1.ObjectMeta{
			Name:                       pod.Name,
			Namespace:                  pod.Namespace,
			UID:                        pod.UID,
			ResourceVersion:            pod.ResourceVersion,
			Generation:                 pod.Generation,
			Labels:                     pod.Labels,
			DeletionTimestamp:          pod.DeletionTimestamp,
			DeletionGracePeriodSeconds: pod.DeletionGracePeriodSeconds,
		},
		Spec: corev1.PodSpec{
			Containers:     keep(pod.Spec.Containers),
			InitContainers: keep(pod.Spec.InitContainers),
			Overhead:       pod.Spec.Overhead,
			Resources:      pod.Spec.Resources,
			ResourceClaims: claims,
		},
		Status: corev1.PodStatus{Phase: pod.Status.Phase},
	}
	return slim, nil
}
