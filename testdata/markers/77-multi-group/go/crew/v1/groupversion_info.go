// +kubebuilder:object:generate=true
// +groupName=crew.multi.kbts.test
package v1
