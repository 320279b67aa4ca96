!> The few CUDA runtime functions the examples need, bound through iso_c_binding
!> (no CUDA Fortran compiler required). Copy it into your code if you like; it
!> is not part of libcuperm_fortran.
module cuda_runtime_f
  use, intrinsic :: iso_c_binding
  use cuperm_f, only: cuperm_c_string
  implicit none
  private
  public :: cudaMalloc, cudaFree, cudaMemcpy, cudaDeviceSynchronize, cudaGetDeviceCount
  public :: cudaGetErrorString, cuda_check, require_gpu_or_skip
  integer(c_int), parameter, public :: cudaSuccess = 0
  integer(c_int), parameter, public :: cudaMemcpyHostToDevice = 1
  integer(c_int), parameter, public :: cudaMemcpyDeviceToHost = 2

  interface
    function cudaMalloc(ptr, bytes) bind(c, name='cudaMalloc') result(err)
      import :: c_ptr, c_size_t, c_int
      type(c_ptr), intent(out) :: ptr
      integer(c_size_t), value :: bytes
      integer(c_int) :: err
    end function
    function cudaFree(ptr) bind(c, name='cudaFree') result(err)
      import :: c_ptr, c_int
      type(c_ptr), value :: ptr
      integer(c_int) :: err
    end function
    function cudaMemcpy(dst, src, bytes, kind) bind(c, name='cudaMemcpy') result(err)
      import :: c_ptr, c_size_t, c_int
      type(c_ptr), value :: dst, src
      integer(c_size_t), value :: bytes
      integer(c_int), value :: kind
      integer(c_int) :: err
    end function
    function cudaDeviceSynchronize() bind(c, name='cudaDeviceSynchronize') result(err)
      import :: c_int
      integer(c_int) :: err
    end function
    function cudaGetDeviceCount(n) bind(c, name='cudaGetDeviceCount') result(err)
      import :: c_int
      integer(c_int), intent(out) :: n
      integer(c_int) :: err
    end function
    function cudaGetErrorString(err) bind(c, name='cudaGetErrorString') result(s)
      import :: c_int, c_ptr
      integer(c_int), value :: err
      type(c_ptr) :: s
    end function
    subroutine c_exit(status) bind(c, name='exit')
      import :: c_int
      integer(c_int), value :: status
    end subroutine
  end interface

contains

  !> Stops with a message when a CUDA runtime call failed.
  subroutine cuda_check(err, what)
    integer(c_int), intent(in) :: err
    character(len=*), intent(in) :: what
    if (err == cudaSuccess) return
    print '(a)', 'FAILED: ' // what // ': ' // cuperm_c_string(cudaGetErrorString(err))
    stop 1
  end subroutine

  !> As support/gpu_skip.c: without a usable GPU, print "SKIPPED: ..." and
  !> exit 77, which ctest reports as skipped (SKIP_RETURN_CODE 77).
  subroutine require_gpu_or_skip(test_name)
    use, intrinsic :: iso_fortran_env, only: output_unit
    character(len=*), intent(in) :: test_name
    integer(c_int) :: n, err
    n = 0
    err = cudaGetDeviceCount(n)
    if (err /= cudaSuccess .or. n == 0) then
      if (err /= cudaSuccess) then
        print '(a)', 'SKIPPED: ' // test_name // ' needs a CUDA GPU (' // &
            cuperm_c_string(cudaGetErrorString(err)) // ')'
      else
        print '(a)', 'SKIPPED: ' // test_name // ' needs a CUDA GPU (no devices)'
      end if
      flush(output_unit)
      call c_exit(77_c_int)
    end if
  end subroutine

end module cuda_runtime_f
