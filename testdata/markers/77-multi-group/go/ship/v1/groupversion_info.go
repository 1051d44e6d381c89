// +kubebuilder:object:generate=true
// +groupName=ship.multi.kbts.test
package v1
